// @ts-check
// A SUT writes the files dyno reads its runtime's events, its event-loop delay and its allocation from, and the stderr its gctrace
// comes on: all of it is read as data. A fixture SUT run with `--runtime-events on` writes, beside its real events, a collection of
// the kind `__proto__`, one of a kind that is HTML, times and pauses that are not numbers, an 8 GiB sparse V8 log, a FIFO named as
// a V8 log: each run ends, its result as the schema says and its run `complete`, nothing of dyno's objects bent, no markup kept,
// and a log refused with the reason. Allocation readings in the SUT's directory that name another process, or are no reading
// (a FIFO, 8 GiB, text for a number), are never signalled, read or counted; a gctrace line whose figures are not numbers is no cycle.
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { allocationEnv, readAllocation } from '../../src/measures/instructions/counts/allocation-readings.js'
import { RUNTIME_EVENT_SOURCES } from '../../src/subjects/runtime-events/runtime-event-sources.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const work = mkdtempSync(join(tmpdir(), 'dyno-sut-data-'))

afterEach(() => { delete process.env.DYNO_FIXTURE_HOSTILE })
afterAll(() => {
  runs.expectNoneLeft(expect)
  rmSync(work, { recursive: true, force: true })
})

/**
 * One short cell of the fixture with its runtime's events collected, the SUT writing `form` beside them.
 * @param {string} form
 */
async function serveWriting (form) {
  process.env.DYNO_FIXTURE_HOSTILE = form
  const outcome = await runInTempDir({
    runs,
    suts: [fixtureSut('writes-hostile-runtime-files')],
    scenarios: ['json'],
    load: { durationSec: 1, warmupSec: 0, runtimeEvents: true }
  })
  const [record] = outcome.written
  expect(record.status, record.reason).toBe('ok')
  expect(schemaErrors('result', record)).toEqual([])
  expect(outcome.index.status).toBe('complete')
  // Nothing dyno's own objects inherit was set, and no markup the SUT wrote is in any file of the run.
  expect(Object.getOwnPropertyNames(Object.prototype).filter((name) => ['count', 'pauseMs'].includes(name))).toEqual([])
  for (const name of readdirSync(outcome.runDir)) {
    expect(readFileSync(join(outcome.runDir, name), 'utf8'), name).not.toMatch(/<img|__proto__/)
  }
  return { record, events: record.summary.runtimeEvents }
}

describe('the runtime events a SUT writes beside itself', () => {
  it('count a collection of the kind `__proto__` as other, and bend no object of dyno\'s', async () => {
    const { events } = await serveWriting('gc-proto')
    expect(events.reason).toBeNull()
    expect(events.totals.gc.other.count).toBeGreaterThan(10)
  }, 60_000)

  it('count a collection of a kind that is HTML as other, and keep no markup', async () => {
    const { events } = await serveWriting('gc-markup')
    expect(events.totals.gc.other.count).toBeGreaterThan(10)
    expect(Object.keys(events.totals.gc).sort()).toEqual(['incremental', 'major', 'minor', 'other', 'weak callbacks'])
  }, 60_000)

  it('leave out times and pauses that are not numbers, and an event-loop sample\'s fields of its own', async () => {
    const { record, events } = await serveWriting('not-numbers')
    for (const window of events.windows) {
      for (const tally of Object.values(window.gc)) expect(Number.isFinite(tally.pauseMs), JSON.stringify(window.gc)).toBe(true)
    }
    expect(record.summary.eventLoop.samples.length).toBeGreaterThan(0)
    for (const sample of record.summary.eventLoop.samples) {
      expect(Object.keys(sample).sort()).toEqual(['maxMs', 'meanMs', 'p50Ms', 'p99Ms', 'pid', 'tMs'])
    }
    expect(Number.isFinite(record.summary.eventLoop.meanMs)).toBe(true)
  }, 60_000)

  it('refuse an 8 GiB V8 log for the cell, with the reason, and the run goes on', async () => {
    const { events } = await serveWriting('huge-log')
    expect(events).toMatchObject({ source: 'v8', windows: null, totals: null })
    expect(events.reason).toMatch(
      /^not read: the V8 log \/.*\/isolate-0x1-\d+-v8\.log is 8589934592 bytes, more than the 268435456 dyno reads$/
    )
  }, 60_000)

  it('refuse a FIFO named as a V8 log, never waiting on it', async () => {
    const { events } = await serveWriting('fifo-log')
    expect(events.reason).toMatch(/^not read: the V8 log \/.*\/isolate-0x2-\d+-v8\.log is a FIFO, not a regular file$/)
  }, 60_000)
})

describe('Go\'s gctrace on a SUT\'s stderr', () => {
  it('is a cycle only when its figures are numbers, and a stretch without a line break is dropped, not kept', () => {
    const probe = RUNTIME_EVENT_SOURCES.go.prepare({ dir: work, windowMs: 250, inheritedNodeOptions: '' })
    const line = (/** @type {string} */ since) =>
      `gc 1 @${since}s 2%: 0.021+1.2+0.015 ms clock, 0.042+0.3/0.9/0.1+0.030 ms cpu, 4->4->1 MB, 2 P\n`
    probe.onStderr?.(Buffer.from(line('1.2.3') + line('0.5') + 'x'.repeat(1024 * 1024)))
    probe.onStderr?.(Buffer.from('\n' + line('0.75')))
    expect(probe.collect().gc.map((cycle) => cycle.kind)).toEqual(['cycle', 'cycle'])
    expect(probe.collect().gc.every((cycle) => Number.isFinite(cycle.atMs) && Number.isFinite(cycle.pauseMs))).toBe(true)
  })
})

describe('allocation readings in the SUT\'s directory', () => {
  it("are asked of and read from the SUT's own processes only: a reading naming another process, a FIFO, 8 GiB or " +
    'text are none', async () => {
    const dir = mkdtempSync(join(work, 'allocation-'))
    // A process outside the SUT's group that notes every SIGUSR2 it gets (Node's default for it would end the process).
    const signalled = join(work, 'signalled')
    const bystander = spawn(
      process.execPath,
      [
        '-e',
        `process.on('SIGUSR2', () => require('node:fs').appendFileSync(${JSON.stringify(signalled)}, 'x')); setInterval(() => {}, 1000)`
      ],
      { stdio: 'ignore' }
    )
    // The SUT: a Node process leading its own group, with the preload dyno counts allocation by.
    const sut = spawn(process.execPath, ['-e', 'setInterval(() => { globalThis.kept = new Array(1000).fill(1) }, 5)'], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, ...allocationEnv({ dir, inheritedNodeOptions: '' }) }
    })
    try {
      const bystanderPid = /** @type {number} */ (bystander.pid)
      const sutPid = /** @type {number} */ (sut.pid)
      await waitFor(() => existsSync(join(dir, `${sutPid}.json`)))
      writeFileSync(
        join(dir, `${bystanderPid}.json`),
        JSON.stringify({ pid: bystanderPid, sequence: 0, allocatedBytes: 1, collections: 0 })
      )
      writeFileSync(join(dir, '1.json'), JSON.stringify({ pid: 1, sequence: 0, allocatedBytes: 1, collections: 0 }))
      writeFileSync(join(dir, '2.json'), JSON.stringify({ pid: 2, sequence: 0, allocatedBytes: 1e15, collections: '<img src=x>' }))
      spawnSync('mkfifo', [join(dir, '3.json')])
      const huge = openSync(join(dir, '4.json'), 'w')
      ftruncateSync(huge, 8 * 1024 ** 3)
      closeSync(huge)
      const first = await readAllocation(dir, { group: sutPid })
      const second = await readAllocation(dir, { group: sutPid })
      expect(first.processes).toBe(1)
      expect(second.allocatedBytes).toBeGreaterThan(first.allocatedBytes)
      expect(Number.isInteger(second.collections)).toBe(true)
      expect(existsSync(signalled)).toBe(false)
    } finally {
      const ended = [bystander, sut].map((child) => new Promise((resolve) => child.once('exit', resolve)))
      bystander.kill('SIGKILL')
      process.kill(-(/** @type {number} */ (sut.pid)), 'SIGKILL')
      await Promise.all(ended)
    }
    expect([bystander, sut].map((child) => child.exitCode ?? child.signalCode)).toEqual(['SIGKILL', 'SIGKILL'])
  }, 60_000)
})

/** @param {() => boolean} done */
async function waitFor (done) {
  for (let tries = 0; tries < 200 && !done(); tries++) await new Promise((resolve) => setTimeout(resolve, 50))
  if (!done()) throw new Error('timed out')
}
