// @ts-check
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()

it('writes one schema-valid result per scenario and a run index, warmup kept apart', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-run-'))
  const scratch = mkdtempSync(join(tmpdir(), 'dyno-run-tmp-'))
  const result = await runCli(
    dynoRun({
      frameworks: 'node-http',
      scenarios: 'plaintext,json',
      repeats: 1,
      durationSec: 1,
      warmupSec: 0.5,
      connections: 10,
      engine: 'autocannon',
      out
    }),
    { env: { ...process.env, TMPDIR: scratch } }
  )
  expect(readdirSync(scratch)).toEqual([]) // the SUT's event-loop files are gone once it has exited
  rmSync(scratch, { recursive: true })
  expect(result.stderr).not.toMatch(/unexpected error/)
  expect(result.code, result.stderr).toBe(0)

  const [runId] = readdirSync(out)
  runs.add(runId)
  const runDir = join(out, runId)
  expect(readdirSync(runDir).sort()).toEqual([
    'aggregates.json',
    'node-http--json.json',
    'node-http--plaintext.json',
    'report.html',
    'report.md',
    'run.json'
  ])
  const { index, records } = writtenRun(runDir)
  expect(schemaErrors('run-index', index)).toEqual([])
  expect(index).toMatchObject({
    runId,
    status: 'complete',
    options: { connections: [10], durationSec: 1, warmupSec: 0.5, profile: 'quick', repeats: 1 }
  })

  const [, last] = records
  expect(last.sutProcess.exit).not.toBeNull()
  for (const [at, record] of records.entries()) {
    expect(schemaErrors('result', record)).toEqual([])
    expect(record).toMatchObject({ runId, status: 'ok', reason: null, sut: { name: 'node-http', framework: 'node:http', runtime: 'node' } })
    expect(record.verification).toMatchObject({ performed: true, passed: true })
    expect(record.verification.checks.length).toBeGreaterThanOrEqual(4)
    // The warmup is its own record: measured, and never folded into the summary.
    expect(record.warmup.requests).toBeGreaterThan(0)
    expect(record.summary.requests).toBeGreaterThan(0)
    expect(record.summary.durationSec).toBeGreaterThanOrEqual(0.9)
    expect(record.summary.requestsPerSec.mean).toBeCloseTo(record.summary.requests / record.summary.durationSec, 0)
    expect(record.summary.statusCounts).toEqual({ 200: record.summary.requests })
    expect(record.summary.latencyMs.p50).toBeGreaterThan(0)
    expect(record.summary.latencyMs.p50).toBeLessThanOrEqual(record.summary.latencyMs.p99)
    expect(record.summary.latencyMs.p99).toBeLessThanOrEqual(record.summary.latencyMs.max)
    // One SUT process served both scenarios: its exit is the last cell's to record. A cell measured again because it was disturbed
    // (the other test files load the machine) was measured again after the plan, in a launch of its own.
    expect(record.sutProcess.servedBefore).toBe(record.interference.earlierAttempts.length > 0 ? 0 : at)
    // Latency over time: 250 ms windows covering the phase, their responses adding up to the phase's.
    expect(record.load.windowMs).toBe(250)
    expect(record.summary.timeseries.length).toBeGreaterThanOrEqual(4)
    expect(record.summary.timeseries.reduce((sum, window) => sum + window.requests, 0)).toBe(record.summary.requests)
    expect(record.warmup.timeseries.reduce((sum, window) => sum + window.requests, 0)).toBe(record.warmup.requests)
    // Resources of both processes, efficiency, the generator guard, the SUT's event loop, where each ran.
    expect(record.summary.resources.targets.sut.cpuSec).toBeGreaterThan(0)
    expect(record.summary.resources.targets.generator.cpuSec).toBeGreaterThan(0)
    expect(record.summary.resources.targets.sut.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024)
    expect(record.summary.requestsPerCpuSec).toBeGreaterThan(0)
    expect(typeof record.summary.generatorBound).toBe('boolean')
    expect(record.summary.eventLoop.intervalMs).toBeGreaterThan(0)
    expect(typeof record.load.pinning.pinned).toBe('boolean')
    expect(record.warmupAnalysis).toMatchObject({ steadyLatencyP50Ms: expect.any(Number), steadyRequestsPerSec: expect.any(Number) })
  }
  const aggregates = JSON.parse(readFileSync(join(runDir, 'aggregates.json'), 'utf8'))
  expect(schemaErrors('aggregates', aggregates)).toEqual([])
  expect(aggregates.aggregates.map((/** @type {{ scenario: string, runs: number }} */ entry) => [entry.scenario, entry.runs]))
    .toEqual([['plaintext', 1], ['json', 1]])
  // It ends with the overview: node-http's req/s in both scenarios, abbreviated (the table of every round is --verbose's).
  expect(result.stdout).toMatch(/^node-http\s+[\d.]+[kM]?\S*\s+[\d.]+[kM]?\S*$/m)
  expect(result.stdout).toContain(`results: ${runDir}`)
  expect(result.stdout).toContain(`report: ${join(runDir, 'report.md')}`)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))
