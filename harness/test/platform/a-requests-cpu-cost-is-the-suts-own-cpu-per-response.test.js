// @ts-check
// The cpu cost of a request is the SUT's own cpu (its whole process group, read from /proc, or from its own cgroup where it has one)
// divided by the responses; requests per cpu-second is derived from it; the share is of the cpus it was given. The figures are
// checked against each other and against what the burning process measured of itself, never against a speed.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { phaseResourceFigures } from '../../src/platform/resources/resource-figures.js'
import { startResourceSampler } from '../../src/platform/resources/resource-sampler.js'
import { SUT_CPU_BOUND_SHARE } from '../../src/platform/resources/resource-defaults.js'
import { sutCgroupCpu, unifiedCgroupPath, usageUsec } from '../../src/platform/resources/sut-cgroup.js'
import { stopProcessGroup } from '../../src/platform/process/process-group.js'
import { collectLines } from '../support/child-lines.js'
import { trackRuns } from '../support/leftover-processes.js'

const TREE = fileURLToPath(new URL('../fixtures/resources/process-tree.js', import.meta.url))
const runs = trackRuns()
const runId = runs.add(`test-cpu-cost-${randomUUID()}`)
/** One clock tick per process read, twice (start and end of the window), plus the idle processes' bit. */
const TICK_SLACK_SEC = 0.05

it('divides the group\'s cpu by the responses, derives requests per cpu-second from it, and names /proc as its source', async () => {
  const child = spawn(process.execPath, [TREE, 'leader', '600'], {
    detached: true, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DYNO_RUN_ID: runId }
  })
  const stdout = collectLines(/** @type {import('node:stream').Readable} */ (child.stdout))
  try {
    const [, grandchild] = await stdout.waitFor(/^ready (\d+)$/)
    const pgid = /** @type {number} */ (child.pid)
    // A child of this process stays in this process's cgroup: it has none of its own, so its cpu is read from /proc.
    expect(sutCgroupCpu(pgid)).toBeNull()
    const sampler = startResourceSampler({ intervalMs: 250, targets: { sut: { pgid } } })
    process.kill(Number(grandchild), 'SIGUSR2')
    const [, cpuMicros] = await stdout.waitFor(/^burnt \d+ (\d+)$/)
    const report = sampler.stop()
    const requests = 12_345
    const figures = phaseResourceFigures(report, { requests, generatorCores: 1, sutCores: null, sutHostCores: 4 })
    const cost = /** @type {import('../../src/platform/resources/cpu-cost.js').CpuCost} */ (figures.cpuCost)
    const { sut } = report.targets

    expect(cost).toMatchObject({ cpuSource: 'proc', excludes: ['steal', 'other processes'], sutCores: 4, cpuSec: sut.cpuSec })
    expect(cost.cpuSec).toBeGreaterThan(Number(cpuMicros) / 1e6 - TICK_SLACK_SEC)
    // cpuUsPerRequest × requests is the cpu the record holds; requests per cpu-second is its inverse.
    expect(/** @type {number} */ (cost.cpuUsPerRequest) * requests / 1e6).toBeCloseTo(sut.cpuSec, 3)
    const product = /** @type {number} */ (figures.requestsPerCpuSec) * /** @type {number} */ (cost.cpuUsPerRequest)
    expect(Math.abs(product / 1e6 - 1)).toBeLessThan(1e-4)
    // The share of the cpus it was given: its cpu-seconds over the window's wall-seconds over the cores.
    expect(cost.sutCpuSharePct).toBeCloseTo(sut.cpuSec / sut.durationSec / 4 * 100, 0)
    expect(cost.cpuBound).toBe(/** @type {number} */ (cost.sutCpuSharePct) >= SUT_CPU_BOUND_SHARE * 100)
    // Pinned to one cpu, the same cpu is a four times larger share.
    const pinned = phaseResourceFigures(report, { requests, generatorCores: 1, sutCores: 1, sutHostCores: 4 }).cpuCost
    expect(pinned?.sutCores).toBe(1)
    expect(pinned?.cpuUsPerRequest).toBe(cost.cpuUsPerRequest)
    expect(pinned?.sutCpuSharePct).toBeCloseTo(sut.cpuSec / sut.durationSec * 100, 0)
    // Where the SUT's own cgroup was read, its count is the figure, and the record says so.
    const fromCgroup = phaseResourceFigures(report, { requests, generatorCores: 1, sutHostCores: 4, cgroupCpuSec: 1.2345 }).cpuCost
    expect(fromCgroup).toMatchObject({ cpuSource: 'cgroup', cpuSec: 1.2345 })
    expect(/** @type {number} */ (fromCgroup?.cpuUsPerRequest) * requests / 1e6).toBeCloseTo(1.2345, 3)
  } finally {
    await stopProcessGroup(child, { graceMs: 2000, label: 'process tree' })
  }
})

it('has no cost without a response, and no requests per cpu-second either', () => {
  const report = startResourceSampler({ targets: { sut: { pid: process.pid } } }).stop()
  const figures = phaseResourceFigures(report, { requests: 0, generatorCores: 1, sutHostCores: 1 })
  expect(figures.cpuCost?.cpuUsPerRequest).toBeNull()
  expect(figures.requestsPerCpuSec).toBeNull()
})

it('reads the cgroup v2 path of a process and the usage of a cpu.stat', () => {
  // Every Linux process has a /proc/self/cgroup; on a machine with cgroup v2 its `0::` line is its path.
  const path = unifiedCgroupPath(readFileSync('/proc/self/cgroup', 'utf8'))
  expect(path === null || path.startsWith('/')).toBe(true)
  expect(unifiedCgroupPath('12:cpu,cpuacct:/a\n0::/system.slice/dyno-sut.scope\n')).toBe('/system.slice/dyno-sut.scope')
  expect(unifiedCgroupPath('4:memory:/a\n')).toBeNull()
  expect(usageUsec('usage_usec 8123456\nuser_usec 7000000\nsystem_usec 1123456\nnr_periods 0\n')).toBe(8_123_456)
  expect(usageUsec('user_usec 7000000\n')).toBeNull()
})

afterAll(() => runs.expectNoneLeft(expect))
