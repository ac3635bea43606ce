// @ts-check
// `dyno compare` of capacity results: the launches' capacities get a change, its interval, a rank test and a verdict at the capacity
// threshold (10 %), the closed-loop ceilings are shown beside them, and Bencher and github-action-benchmark get the capacity in their
// formats. Two sides measured against different objectives are not judged. The sides are copies of a committed real capacity run of
// four launches whose capacities are then set (test/support/compare-inputs.js).
import { beforeAll, describe, expect, it } from 'vitest'
import { capacityRunWithFigures } from '../../support/compare-inputs.js'
import { validBmf, validGab } from '../../support/compare-output-schemas.js'
import { runCli } from '../../support/run-cli.js'

// The candidate holds 20 % less in every launch, its closed loop 5 % less: four launches a side that do not overlap give p = 2/70.
const BASELINE = { capacityPerSec: [5_000, 5_200, 4_800, 5_100], ceilingPerSec: [3_000, 3_100, 2_900, 3_050] }
const CANDIDATE = {
  capacityPerSec: BASELINE.capacityPerSec.map((value) => value * 0.8),
  ceilingPerSec: BASELINE.ceilingPerSec.map((value) => value * 0.95)
}
let baseline = ''
let candidate = ''

beforeAll(() => {
  baseline = capacityRunWithFigures(BASELINE)
  candidate = capacityRunWithFigures(CANDIDATE)
})

/** @param {...string} args */
const compare = (...args) => runCli(['compare', baseline, candidate, ...args])

describe('dyno compare of capacity results', () => {
  it('judges the capacity of the launches, shows the closed-loop ceilings unjudged, and fails on the regression when asked', async () => {
    const { code, stdout, stderr } = await compare('--format', 'json', '--fail-on', 'regression')
    expect(code, stderr).toBe(1)
    const [row] = JSON.parse(stdout).rows
    expect(row).toMatchObject({
      sut: 'node-http',
      scenario: 'json',
      verdict: 'regressed',
      capacityPerSec: { changePercent: -20, significant: true, test: { name: 'mann-whitney-u' }, threshold: { percent: 10 } },
      ceilingPerSec: { changePercent: -5, verdict: null }
    })
    expect(row.capacityPerSec.test.pValue).toBeCloseTo(2 / 70, 4)
    expect(stderr).toContain('node-http × json (10 connections) regressed -20.0% (capacity req/s)')
  })

  it('prints the table with both sides\' capacities and closed loops', async () => {
    const { code, stdout } = await compare()
    expect(code).toBe(0)
    expect(stdout).toMatch(/base capacity .* cand capacity .* base closed loop .* cand closed loop/)
    expect(stdout).toMatch(/node-http .* 4\/4 .* 5,050 .* 4,040 .* -20\.0% \[[^\]]+\] .* 0\.029 .* 3,025 .* 2,874 .* regressed/)
  })

  it('writes the capacity for Bencher as `capacity` and the ceiling as `throughput`', async () => {
    const { code, stdout } = await compare('--format', 'bmf')
    expect(code).toBe(0)
    const document = JSON.parse(stdout)
    expect(validBmf(document), JSON.stringify(validBmf.errors)).toBe(true)
    const cell = document['node-http/json/c10']
    expect(Object.keys(cell).sort()).toEqual(['capacity', 'throughput'])
    expect(cell.capacity.value).toBe(4_040)
    expect(cell.capacity.lower_value).toBeLessThanOrEqual(4_040)
    expect(cell.capacity.upper_value).toBeGreaterThanOrEqual(4_040)
    expect(cell.throughput.value).toBe(2_874) // the median of the closed loops, in whole req/s
  })

  it('writes the capacity for github-action-benchmark (bigger is better), and refuses the formats of other measures', async () => {
    const { code, stdout } = await compare('--format', 'gab-capacity')
    expect(code).toBe(0)
    const entries = JSON.parse(stdout)
    expect(validGab(entries), JSON.stringify(validGab.errors)).toBe(true)
    expect(entries).toEqual([{
      name: 'node-http/json/c10 capacity',
      unit: 'req/s',
      value: 4_040,
      range: expect.stringMatching(/^± \d+(\.\d+)?$/),
      extra: expect.stringMatching(/^vs baseline 5,050 req\/s: -20\.0% \[.+\], p = 0\.029 \(Mann–Whitney U, 4 and 4 runs\): regressed$/)
    }])
    const refused = await compare('--format', 'gab-p99')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--format gab-p99 holds wall-clock figures, and these results are capacity results; allowed here: ' +
      'table, md, comment, json, bmf, gab-capacity')
  })

  it('does not judge two sides measured against different objectives, and names both', async () => {
    const other = capacityRunWithFigures({ ...CANDIDATE, objective: 'p50<=2ms' })
    const { code, stdout } = await runCli(['compare', baseline, other, '--format', 'json'])
    expect(code).toBe(0)
    const [row] = JSON.parse(stdout).rows
    expect(row.status).toBe('not-comparable')
    expect(row.reason).toContain('measured against different objectives (p99<=10ms and p50<=2ms)')
  })
})
