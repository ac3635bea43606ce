// @ts-check
// Every wall-clock result is checked against itself: Little's law (in a closed loop the mean latency is (connections ×
// pipelining) / req/s), the requests in flight against those the connections keep, the order of the percentiles, and the errors.
// A healthy SUT passes every check; a SUT that leaves some connections stuck, or keeps only a few open, fails the checks it
// breaks, and the summary and the report say which.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkConsistency } from '../../src/measures/wall-clock/consistency-check.js'
import { markdownReport } from '../../src/reports/report/markdown-report.js'
import { readRun } from '../../src/records/read-run.js'
import { formatSummaryTable } from '../../src/interface/ui/summary-table.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const LOAD = { durationSec: 2, warmupSec: 0.5, engine: /** @type {const} */ ('autocannon') }

/** @param {import('../support/fixture-suts.js').FixtureName} name @param {boolean} verify */
async function measured (name, verify) {
  const {
    written: [record],
    runDir
  } = await runInTempDir({ runs, suts: [fixtureSut(name)], scenarios: ['json'], load: LOAD, connections: 8, verify })
  expect(schemaErrors('result', record)).toEqual([])
  return { record, runDir }
}

describe('the consistency check of every wall-clock result', () => {
  it('passes a healthy SUT on every check', async () => {
    const { record } = await measured('cpu-work', true)
    expect(record.consistency).toMatchObject({ passed: true, failed: [] })
    expect(record.consistency.checks.map((/** @type {{ name: string }} */ check) => check.name))
      .toEqual(['littles-law', 'connections-in-flight', 'percentile-order', 'errors'])
  })

  it('fails a SUT that leaves one connection in four stuck: fewer requests in flight than the connections keep', async () => {
    // Not verified: verification's own connections could be the stuck ones.
    const { record, runDir } = await measured('stalls-some-connections', false)
    expect(record.status).toBe('ok')
    expect(record.consistency.passed).toBe(false)
    expect(record.consistency.failed).toEqual(expect.arrayContaining(['littles-law', 'connections-in-flight']))
    const inFlight = record.consistency.checks.find((/** @type {{ name: string }} */ check) => check.name === 'connections-in-flight')
    expect(inFlight.detail).toMatch(
      /^[\d.]+ requests were in flight on average .* of the 8 that 8 connections × 1 pipelining keep: the others were not/
    )
    const summary = formatSummaryTable([record])
    expect(summary).toMatch(/ok \(inconsistent: littles-law, connections-in-flight\)/)
    expect(summary).toMatch(
      /INCONSISTENT: 1 result disagrees with itself:\n {2}fixture-stalls-some-connections × json: littles-law: mean latency/
    )
    expect(markdownReport(readRun(runDir))).toMatch(/\*\*inconsistent\*\*: littles-law: mean latency .* connections-in-flight: /)
  })

  it('fails a SUT that keeps only four of eight connections open, on its errors and the requests in flight', async () => {
    const { record } = await measured('accepts-few-connections', false)
    expect(record.consistency.passed).toBe(false)
    expect(record.consistency.failed).toContain('errors')
    expect(record.consistency.failed).toContain('connections-in-flight')
  })

  it('fails figures out of order, and a mean that sits far above Little\'s law', async () => {
    const { record } = await measured('cpu-work', true)
    const broken = structuredClone(record)
    broken.summary.latencyMs = { ...broken.summary.latencyMs, p99: broken.summary.latencyMs.max * 2 }
    expect(checkConsistency(broken)?.failed).toEqual(['percentile-order'])
    const slowMean = structuredClone(record)
    slowMean.summary.latencyMs = {
      ...slowMean.summary.latencyMs,
      mean: slowMean.summary.latencyMs.mean * 1.5,
      max: slowMean.summary.latencyMs.max * 10
    }
    expect(checkConsistency(slowMean)?.failed).toEqual(['littles-law'])
    // A count has no measured phase to check.
    expect(checkConsistency({ ...record, summary: null })).toBeNull()
    expect(readFileSync(new URL('../../schema/result.schema.json', import.meta.url), 'utf8')).toContain('"consistency"')
  })
})
