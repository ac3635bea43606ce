// @ts-check
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it, vi } from 'vitest'
import { scanProcessGroup } from '../../src/platform/process/proc-reader.js'
import { startResourceSampler } from '../../src/platform/resources/resource-sampler.js'
import { processGroupAlive, stopProcessGroup } from '../../src/platform/process/process-group.js'
import { collectLines } from '../support/child-lines.js'
import { trackRuns } from '../support/leftover-processes.js'

// The tests wait for the sampler's reads, never for a fixed time. Each sampler below has one more target, this test's
// own process, read once per tick through readProcStat: counting those reads (the real reads, observed) counts the
// samples taken, and a tick's read of it comes after its reads of the other targets.
const clock = vi.hoisted(() => ({ reads: 0, /** @type {Set<() => void>} */ waiters: new Set() }))
vi.mock('../../src/platform/process/proc-reader.js', async (importOriginal) => {
  const real = /** @type {typeof import('../../src/platform/process/proc-reader.js')} */ (await importOriginal())
  return {
    ...real,
    readProcStat: (/** @type {number} */ pid) => {
      const stat = real.readProcStat(pid)
      if (pid === process.pid) {
        clock.reads += 1
        for (const wake of clock.waiters) wake()
      }
      return stat
    }
  }
})
const CLOCK_TARGET = { pid: process.pid }

/**
 * Resolves once the sampler has taken `count` more samples than when called: the first of them begins after the call.
 * @param {number} count
 * @param {number} [timeoutMs]
 * @returns {Promise<void>}
 */
function samplesTaken (count, timeoutMs = 10_000) {
  const target = clock.reads + count
  return new Promise((resolve, reject) => {
    const check = () => {
      if (clock.reads < target) return
      clock.waiters.delete(check)
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      clock.waiters.delete(check)
      reject(new Error(`the sampler took ${count - (target - clock.reads)} of ${count} samples within ${timeoutMs} ms`))
    }, timeoutMs)
    clock.waiters.add(check)
    check()
  })
}

const TREE = fileURLToPath(new URL('../fixtures/resources/process-tree.js', import.meta.url))
const runs = trackRuns()
const runId = runs.add(`test-resources-${randomUUID()}`)

/**
 * A leader, its child and a grandchild, all in the leader's new group; the grandchild burns one core
 * for burnMs when told to and reports the CPU it used.
 * @param {number} burnMs
 */
async function startTree (burnMs) {
  const child = spawn(process.execPath, [TREE, 'leader', String(burnMs)], {
    detached: true, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DYNO_RUN_ID: runId }
  })
  const stdout = collectLines(/** @type {import('node:stream').Readable} */ (child.stdout))
  const [, grandchild] = await stdout.waitFor(/^ready (\d+)$/)
  return {
    child,
    pgid: /** @type {number} */ (child.pid),
    /** @returns {Promise<number>} the CPU seconds the grandchild says it burnt */
    burn: async () => {
      process.kill(Number(grandchild), 'SIGUSR2')
      const [, cpuMicros] = await stdout.waitFor(/^burnt \d+ (\d+)$/)
      return Number(cpuMicros) / 1e6
    }
  }
}

/** @param {number} pid @returns {number} VmRSS as the kernel reports it */
const vmRssBytes = (pid) => Number(/^VmRSS:\s*(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024

/** One clock tick per process read, twice (start and end of the window), plus the idle processes' bit. */
const TICK_SLACK_SEC = 0.05

it('counts the CPU a grandchild burns in the group, as the grandchild itself measured it, and the RSS of every process', async () => {
  const tree = await startTree(1500)
  try {
    const sampler = startResourceSampler({
      intervalMs: 250,
      targets: { sut: { pgid: tree.pgid }, generator: { pid: tree.pgid }, clock: CLOCK_TARGET }
    })
    const startedWith = clock.reads // the baseline read
    const burntSec = await tree.burn()
    // One sample that begins after the burn, so that all of it is in the samples (a last interval shorter than half
    // the others counts in the totals only), and at least five in all.
    await samplesTaken(1)
    await samplesTaken(Math.max(0, 5 - (clock.reads - startedWith)))
    const memberRssBytes = scanProcessGroup(tree.pgid).map((member) => vmRssBytes(member.pid))
    const { targets: { sut, generator }, intervalMs, clockTicksPerSec } = sampler.stop()

    expect(intervalMs).toBe(250)
    expect(clockTicksPerSec).toBeGreaterThan(0)
    expect(sut).toMatchObject({ scope: 'group', id: tree.pgid, maxProcesses: 3 })
    expect(sut.cpuSec).toBeGreaterThan(burntSec - TICK_SLACK_SEC)
    expect(sut.cpuSec).toBeLessThan(burntSec + TICK_SLACK_SEC)
    expect(sut.cpuPctMean).toBeCloseTo(sut.cpuSec / sut.durationSec * 100, -1)
    expect(sut.cpuUserSec).toBeGreaterThan(sut.cpuSystemSec)
    expect(sut.cpuSec).toBeCloseTo(sut.cpuUserSec + sut.cpuSystemSec, 2)
    // The samples add up to the total: each is the CPU of its own interval.
    const sampledSec = sut.samples.reduce((sum, sample, i) =>
      sum + (sample.cpuUserPct + sample.cpuSystemPct) / 100 * (sample.tMs - (sut.samples[i - 1]?.tMs ?? 0)) / 1000, 0)
    expect(sampledSec).toBeCloseTo(sut.cpuSec, 1)
    expect(sut.samples.length).toBeGreaterThanOrEqual(5)
    for (const sample of sut.samples) {
      expect(sample.processes).toBe(3)
      expect(sample.rssBytes).toBeGreaterThan(3 * 10 * 1024 * 1024) // three node processes
      expect(sample.rssBytes).toBeLessThanOrEqual(sut.peakRssBytes)
    }
    const lastRss = /** @type {number} */ (sut.samples.at(-1)?.rssBytes)
    const kernelRss = memberRssBytes.reduce((sum, bytes) => sum + bytes, 0)
    expect(Math.abs(lastRss - kernelRss) / kernelRss).toBeLessThan(0.1)

    // The idle leader alone: hardly any CPU.
    expect(generator).toMatchObject({ scope: 'process', id: tree.pgid, maxProcesses: 1 })
    expect(generator.cpuSec).toBeLessThan(TICK_SLACK_SEC)
    expect(generator.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024)
  } finally {
    await stopProcessGroup(tree.child, { graceMs: 2000, label: 'process tree' })
  }
})

it('keeps sampling when the processes end between reads, and keeps what they used before', async () => {
  const tree = await startTree(400)
  const intervalMs = 50
  const sampler = startResourceSampler({
    intervalMs,
    targets: { sut: { pgid: tree.pgid }, generator: { pid: tree.pgid }, clock: CLOCK_TARGET }
  })
  const burntSec = await tree.burn()
  // CPU a process uses after the sampler's last read of it dies with it; let a read that begins after the burn see it first.
  await samplesTaken(1)
  process.kill(-tree.pgid, 'SIGKILL')
  await stopProcessGroup(tree.child, { graceMs: 2000, label: 'process tree' })
  expect(processGroupAlive(tree.pgid)).toBe(false)
  await samplesTaken(3) // a few more intervals with nothing left to read
  const { targets: { sut, generator } } = sampler.stop()

  expect(sut.cpuSec).toBeGreaterThan(burntSec - TICK_SLACK_SEC)
  expect(sut.maxProcesses).toBe(3)
  expect(sut.samples.at(-1)).toMatchObject({ processes: 0, rssBytes: 0, cpuUserPct: 0, cpuSystemPct: 0 })
  expect(generator.samples.at(-1)).toMatchObject({ processes: 0, rssBytes: 0 })
  expect(sampler.stop().targets.sut).toBe(sut) // stop is idempotent
})

it('reports a target that does not exist as never seen, and refuses a target without an id', () => {
  const sampler = startResourceSampler({ targets: { gone: { pid: 2 ** 22 + 1 } } })
  expect(sampler.stop().targets.gone).toMatchObject({ maxProcesses: 0, cpuSec: 0, peakRssBytes: 0 })
  expect(() => startResourceSampler({ targets: { sut: { pgid: 0 } } })).toThrow(/positive pid or pgid/)
})

afterAll(() => runs.expectNoneLeft(expect))
