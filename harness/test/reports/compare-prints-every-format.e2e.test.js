// @ts-check
import { beforeAll, describe, expect, it } from 'vitest'
import { FOUR_REPEATS, runWithFigures } from '../support/compare-inputs.js'
import { validBmf, validGab } from '../support/compare-output-schemas.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

// Known figures on real result files (copies of a committed run of 4 repeats): the candidate is
// exactly 10% slower in req/s and 20% slower at p99, run by run, so the Hodges–Lehmann change is
// -10% / +20% and, with four runs a side that do not overlap, p = 2/70 and the interval spans the
// extreme ratios.
const baselineFigures = { requestsPerSec: [10_000, 10_100, 9_900, 10_050], p99Ms: [2.0, 2.1, 1.9, 2.05] }
const candidateFigures = {
  requestsPerSec: baselineFigures.requestsPerSec.map((value) => value * 0.9),
  p99Ms: baselineFigures.p99Ms.map((value) => value * 1.2)
}
let baseline = ''
let candidate = ''

beforeAll(() => {
  baseline = runWithFigures(FOUR_REPEATS, baselineFigures)
  candidate = runWithFigures(FOUR_REPEATS, candidateFigures)
})

/** @param {string[]} args */
const compare = (...args) => runCli(['compare', baseline, candidate, ...args])

describe('dyno compare output formats', () => {
  it('prints a terminal table with each side, the change, its interval, p and the verdict', async () => {
    const { code, stdout } = await compare()
    expect(code).toBe(0)
    expect(stdout).toContain(`baseline:  ${baseline} (run `)
    const row = stdout.split('\n').find((line) => line.includes('node-http'))
    expect(
      row
        ?.split('│')
        .map((cell) => cell.trim())
        .filter(Boolean)
    ).toEqual([
      'node-http',
      'json',
      '10',
      '4/4',
      '10,025',
      '9,023',
      '-10.0% [-11.8%, -8.2%]',
      '0.029',
      '2.025',
      '2.430',
      '+20.0% [+8.6%, +32.6%]',
      // The SUT's cpu per request, with a verdict of its own: the same on both sides, copies of one run.
      '20.6',
      '20.6',
      '0.0% [-31.2%, +45.4%]',
      'unchanged',
      'regressed'
    ])
    expect(stdout).toMatch(/Verdicts on req\/s: 1 regressed, 0 improved, 0 unchanged\. A verdict needs p < 0\.05 .* at least 5%/)
  })

  it('prints markdown with the verdict in bold', async () => {
    const { code, stdout } = await compare('--format', 'md')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^## dyno compare\n\n\*\*1 significant regression\*\* beyond 5%\n/)
    expect(stdout).toContain('| node-http | json | 10 | 4/4 | 10,025 | 9,023 | -10.0% [-11.8%, -8.2%] | 0.029 | ' +
      '2.025 | 2.430 | +20.0% [+8.6%, +32.6%] | 20.6 | 20.6 | 0.0% [-31.2%, +45.4%] | unchanged | **regressed** |')
  })

  it('prints JSON that its schema accepts, with the figures of each side and the test', async () => {
    const { code, stdout } = await compare('--format', 'json')
    expect(code).toBe(0)
    const document = JSON.parse(stdout)
    expect(schemaErrors('compare', document)).toEqual([])
    expect(document.summary).toEqual({
      improved: 0,
      regressed: 1,
      unchanged: 0,
      tooFewRepeats: 0,
      notComparable: 0,
      syscallsRegressed: 0,
      allocationRegressed: 0,
      disturbed: 0
    })
    const [row] = document.rows
    expect(row).toMatchObject({
      sut: 'node-http',
      scenario: 'json',
      connections: 10,
      status: 'compared',
      reason: null,
      verdict: 'regressed'
    })
    expect(row.requestsPerSec).toMatchObject({
      baseline: { runs: baselineFigures.requestsPerSec, median: 10_025 },
      candidate: { runs: [9_000, 9_090, 8_910, 9_045], median: 9_022.5 },
      changePercent: -10,
      ci95Percent: [-11.78, -8.18],
      test: { name: 'mann-whitney-u', method: 'exact', u: 16, pValue: 0.02857 },
      significant: true,
      verdict: 'regressed'
    })
    expect(row.p99Us).toMatchObject({
      baseline: { median: 2025 }, candidate: { median: 2430 }, changePercent: 20, ci95Percent: [8.57, 32.63], verdict: 'regressed'
    })
    expect(row.files.baseline).toHaveLength(4)
  })

  it('prints the candidate in Bencher Metric Format, valid against its documented schema', async () => {
    const { code, stdout } = await compare('--format', 'bmf')
    expect(code).toBe(0)
    const document = JSON.parse(stdout)
    expect(validBmf(document), JSON.stringify(validBmf.errors)).toBe(true)
    const throughput = document['node-http/json/c10'].throughput
    expect(throughput.value).toBe(9_022.5)
    expect(throughput.lower_value).toBeGreaterThanOrEqual(8_910)
    expect(throughput.upper_value).toBeLessThanOrEqual(9_090)
    expect(throughput.lower_value).toBeLessThanOrEqual(throughput.value)
    expect(document['node-http/json/c10'].latency.value).toBe(2_430_000) // p99 in ns, Bencher's latency unit
  })

  it('prints github-action-benchmark custom JSON: req/s bigger is better, p99 smaller is better', async () => {
    const bigger = await compare('--format', 'gab')
    const entries = JSON.parse(bigger.stdout)
    expect(validGab(entries), JSON.stringify(validGab.errors)).toBe(true)
    expect(entries).toEqual([{
      name: 'node-http/json/c10',
      unit: 'req/s',
      value: 9_022.5,
      range: expect.stringMatching(/^± \d+(\.\d+)?$/),
      extra: 'vs baseline 10,025 req/s: -10.0% [-11.8%, -8.2%], p = 0.029 (Mann–Whitney U, 4 and 4 runs): regressed'
    }])
    const smaller = JSON.parse((await compare('--format', 'gab-p99')).stdout)
    expect(validGab(smaller)).toBe(true)
    expect(smaller).toMatchObject([
      { name: 'node-http/json/c10 p99', unit: 'ms', value: 2.43, extra: expect.stringContaining('+20.0% [+8.6%, +32.6%]') }
    ])
  })
})

describe('dyno compare verdicts and exit codes', () => {
  it('exits 1 on a significant regression beyond the threshold with --fail-on regression, naming it', async () => {
    const { code, stderr } = await compare('--fail-on', 'regression')
    expect(code).toBe(1)
    expect(stderr).toContain('node-http × json (10 connections) regressed -10.0% (req/s)')
  })

  it('calls a change below --threshold unchanged and exits 0', async () => {
    const { code, stdout } = await compare('--threshold', '15%', '--fail-on', 'regression', '--format', 'json')
    expect(code).toBe(0)
    expect(JSON.parse(stdout).rows[0]).toMatchObject({ verdict: 'unchanged', requestsPerSec: { significant: true, changePercent: -10 } })
  })

  it('calls the reverse comparison improved', async () => {
    const { code, stdout } = await runCli(['compare', candidate, baseline, '--fail-on', 'regression', '--format', 'json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout).rows[0]).toMatchObject({ verdict: 'improved', requestsPerSec: { changePercent: 11.11 } })
  })

  it.each([
    [
      ['--format', 'xml'],
      /`--format` must be one of table, md, comment, json, bmf, gab, gab-p99, gab-instructions, gab-capacity, got `xml`/
    ],
    [['--threshold', 'five'], /`--threshold` must be a percentage from 0 to 100 \(e\.g\. 5 or 5%\), got `five`/],
    [['--fail-on', 'slowdown'], /`--fail-on` must be one or more of regression, not-comparable, comma-separated, got `slowdown`/]
  ])('rejects %j with exit 2', async (args, message) => {
    const { code, stderr } = await compare(...args)
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })
})
