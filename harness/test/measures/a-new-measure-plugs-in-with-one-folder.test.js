// @ts-check
// A measure is one folder under measures/ and a line in its registry: a run is handed its measure once, as an object, and nothing
// outside measures/ asks which one it holds. Proven with a measure dyno does not know (support/one-at-a-time-measure/): handed to a
// run, it measures every verified cell, the results record it, and the run's notes and figures are the measure's own.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HARNESS_DIR, PACKAGES_DIR } from '../../src/platform/paths.js'
import { MEASURES } from '../../src/measures/index.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { measuredCells, oneAtATime, REQUESTS_PER_CELL } from '../support/one-at-a-time-measure/one-at-a-time-measure.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

describe('a new measure', () => {
  it('measures every verified cell of a run it is handed, and the results, notes and figures are its own', async () => {
    const before = measuredCells.length
    const notes = /** @type {string[]} */ ([])
    const { written, index } = await runInTempDir({
      runs,
      suts: [loadSut(join(PACKAGES_DIR, 'node-http'))],
      scenarios: ['plaintext', 'json'],
      measure: oneAtATime,
      hooks: { onNote: (line) => notes.push(line) }
    })
    expect(written.map((record) => `${record.scenario.name} ${record.status}`)).toEqual(['plaintext ok', 'json ok'])
    expect(measuredCells.slice(before)).toEqual([
      { sut: 'node-http', scenario: 'plaintext', requests: REQUESTS_PER_CELL },
      { sut: 'node-http', scenario: 'json', requests: REQUESTS_PER_CELL }
    ])
    for (const record of written) {
      expect(record.load.measure).toBe('one-at-a-time')
      expect(record.verification.passed).toBe(true)
      const figures = /** @type {{ oneAtATime?: { requests: number, medianUs: number } }} */ (record).oneAtATime
      expect(figures?.requests).toBe(REQUESTS_PER_CELL)
      expect(figures?.medianUs).toBeGreaterThan(0)
      expect(oneAtATime.report.resultLine(record)).toMatch(/^ {2}\d+ µs per request, one at a time$/)
      // No engine loaded it: the wall-clock measure's summary is not there.
      expect(record.summary ?? null).toBeNull()
    }
    expect(notes).toContain(`one request at a time, ${REQUESTS_PER_CELL} a cell`)
    expect(index.results).toHaveLength(2)
  })

  it('is twelve members, the same in every measure dyno has and in one it does not know', () => {
    const members = Object.keys(oneAtATime).sort()
    expect(members).toHaveLength(12)
    for (const measure of MEASURES) expect(Object.keys(measure).sort(), measure.name).toEqual(members)
  })

  it('is the only place a measure is named: no file outside measures/ compares a measure\'s name', () => {
    const src = join(HARNESS_DIR, 'src')
    const files = readdirSync(src, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js')).map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => !relative(src, file).startsWith('measures/'))
    expect(files.length).toBeGreaterThan(100)
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      expect(text, file).not.toMatch(/[!=]==\s*'(wall-clock|instructions)'/)
      expect(text, file).not.toMatch(/'(wall-clock|instructions)'\s*[!=]==/)
    }
  })

  afterAll(() => runs.expectNoneLeft(expect))
})
