// @ts-check
// Real series recorded here, each with the class commit 583d91a's classifier gave it and the class it should get (the fixture folder's
// README says how each was made): a leak whose level steps down is a slowdown, one that stalls to its end has no steady state, the leak
// fixture's decline is seen at two machine speeds, and the sustained profile's series keep the classes their shapes call for.
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { classifyCell } from '../../src/judging/cell-classification.js'

const FIXTURES = new URL('../fixtures/classified-series/', import.meta.url)

/**
 * @typedef {[number, number, number, number | null]} Row startMs, durationMs, requests, p50Ms
 * @typedef {{ windowMs: number, classifiedBy583d91a: string, shouldBe: string[], why: string, warmup: Row[], measure: Row[] }} Fixture
 */

/**
 * The windows as the classification reads them; what it does not read (the other percentiles, errors) is what the row does not hold.
 * @param {Row[]} rows @returns {import('../../src/load/timeseries.js').Window[]}
 */
const windows = (rows) =>
  rows.map(([startMs, durationMs, requests, p50]) => ({
    startMs,
    durationMs,
    requests,
    requestsPerSec: (1000 * requests) / durationMs,
    errors: 0,
    latencyMs: p50 === null ? null : { p50, p75: p50, p90: p50, p99: p50 }
  }))

const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.json')).sort().map((name) => ({
  name: name.replace(/\.json$/, ''),
  /** @type {Fixture} */
  fixture: JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'))
}))

describe('a real series classified by its levels, not its scatter', () => {
  it('holds the failures issue 42 asked to keep', () => {
    expect(
      fixtures.filter(({ fixture }) => fixture.classifiedBy583d91a === 'flat' && !fixture.shouldBe.includes('flat')).length
    ).toBeGreaterThanOrEqual(3)
  })

  it.each(fixtures)('classifies $name as its shape says', ({ fixture }) => {
    const cell = classifyCell({
      warmup: windows(fixture.warmup),
      measure: windows(fixture.measure),
      windowMs: fixture.windowMs,
      runtime: { warmup: null, measure: null }
    })
    expect(fixture.shouldBe, fixture.why).toContain(cell.classification)
    // A class with a steady state says where it starts, inside the series; one without says so.
    if (cell.classification === 'no steady state') expect(cell.throughput?.steadyStartMs).toBeNull()
    else expect(cell.throughput?.steadyStartMs).toBeGreaterThanOrEqual(0)
  })
})
