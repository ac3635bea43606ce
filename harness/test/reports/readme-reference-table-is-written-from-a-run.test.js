// @ts-check
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { PACKAGES_DIR, REPO_ROOT } from '../../src/platform/paths.js'
import { createLatencyHistogram, encodeHistogram } from '../../src/load/latency-histogram.js'
import { REFERENCE_END, REFERENCE_START, referenceTable } from '../../src/measures/wall-clock/report/reference-table.js'
import { aggregateRuns } from '../../src/records/aggregate-runs.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { formatInteger } from '../../src/platform/text/format.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('replaces the README block with the run\'s figures, its environment, and the status of what was not measured', async () => {
  const { runDir, aggregates, runId } = await runInTempDir({
    runs,
    suts: [loadSut(`${PACKAGES_DIR}node-http`), fixtureSut('skipped-here')],
    scenarios: ['plaintext', 'json'],
    load: { durationSec: 0.5 }
  })
  const readme = join(mkdtempSync(join(tmpdir(), 'dyno-readme-')), 'README.md')
  writeFileSync(readme, `# title\n\nbefore\n\n${REFERENCE_START}\nstale\n${REFERENCE_END}\n\nafter\n`)
  execFileSync(process.execPath, [join(REPO_ROOT, 'harness/bin/readme-reference.js'), runDir, readme])
  const written = readFileSync(readme, 'utf8')
  expect(written.startsWith('# title\n\nbefore\n\n')).toBe(true)
  expect(written.endsWith(`${REFERENCE_END}\n\nafter\n`)).toBe(true)
  expect(written).not.toContain('stale')
  expect(written).toContain(`Run \`${runId}\`: `)
  expect(written).toContain(`Node ${process.version}`)
  const figure = (/** @type {string} */ scenario) =>
    aggregates.find((entry) => entry.sut === 'node-http' && entry.scenario === scenario)?.requestsPerSec.center
  const row = written.split('\n').find((line) => line.startsWith('| node-http |'))
  // One round: the figure without a rank group (with the marks this machine earned it), and the legend says why.
  // Then the cpu cost of a request beside it, with the share of its cpus, marked `~` where the SUT was not cpu-bound.
  const marks = '( [†‡!?✗]+)? · [\\d.]+ µs \\d+%~?'
  expect(row).toMatch(new RegExp(`^\\| node-http \\| ${process.versions.node} \\| ${formatInteger(figure('plaintext'))}${marks} \\| ` +
    `${formatInteger(figure('json'))}${marks} \\|$`))
  expect(written).toContain('µs of the SUT\'s cpu per request')
  expect(written).toContain('one round per cell: no rank groups')
  expect(written).toContain(`| fixture-skipped-here | ${process.versions.node} | skipped | skipped |`)
}, 60_000)

it('shows each figure with its rank group, the rows best first over every column, and says what a group means', () => {
  const latency = createLatencyHistogram()
  latency.recordValue(1000)
  const histogram = encodeHistogram(latency)
  /** Two rounds of a SUT in a scenario. @param {string} sut @param {string} scenario @param {number[]} rates */
  const rounds = (sut, scenario, rates) => rates.map((rate, at) => ({
    sut: { label: sut, frameworkVersion: '1.0.0' },
    scenario: { name: scenario },
    load: { connections: 100, engine: 'native', engineVersion: '0.1.0', warmupSec: 1, durationSec: 5, pinning: null },
    repeat: { index: at + 1, of: 2 },
    status: 'ok',
    summary: { requestsPerSec: { mean: rate }, latencyHistogramUs: histogram, generatorBound: false }
  }))
  const records = /** @type {any[]} */ ([
    ...rounds('a', 'json', [60_000, 61_000]),
    ...rounds('b', 'json', [59_000, 60_500]),
    ...rounds('c', 'json', [30_000, 30_500]),
    ...rounds('a', 'plaintext', [70_000, 71_000]),
    ...rounds('b', 'plaintext', [40_000, 40_600]),
    ...rounds('c', 'plaintext', [90_000, 91_000])
  ])
  const env = {
    cpu: { model: 'test cpu', cores: 2 },
    memoryBytes: 2 ** 30,
    os: { type: 'Linux', release: '6' },
    node: 'v22.0.0',
    git: { commit: 'abc' }
  }
  const index = { runId: 'synthetic', env, engineChoice: null }
  const block = referenceTable({ dir: '/nowhere', index, records, aggregates: aggregateRuns(records, { seed: 1 }) })
  const figure = (/** @type {number[]} */ rates) => formatInteger(Math.sqrt(rates[0] * rates[1]))
  // The columns in the contract's order (plaintext before json), whatever order the records came in; the rows best first by the geometric
  // mean of their shares of each column's best: a (0.78 and 1), c (1 and 0.5), b (0.45 and 0.99).
  expect(block.split('\n').filter((line) => /^\| [abc] \|/.test(line))).toEqual([
    `| a | 1.0.0 | ${figure([70_000, 71_000])} (2) | ${figure([60_000, 61_000])} (1–2) |`,
    `| c | 1.0.0 | ${figure([90_000, 91_000])} (1) | ${figure([30_000, 30_500])} (3) |`,
    `| b | 1.0.0 | ${figure([40_000, 40_600])} (3) | ${figure([59_000, 60_500])} (1–2) |`
  ])
  expect(block).toContain('the rank group, (2–4): the data places it anywhere from 2nd to 4th in its column')
  expect(block).toContain('Benjamini–Hochberg at a 2% false discovery rate')
})

it('refuses a README without the markers and says which lines it needs', () => {
  const readme = join(mkdtempSync(join(tmpdir(), 'dyno-readme-')), 'README.md')
  writeFileSync(readme, '# no markers\n')
  expect(() =>
    execFileSync(process.execPath, [join(REPO_ROOT, 'harness/bin/readme-reference.js'), join(REPO_ROOT, 'results'), readme], {
      stdio: 'pipe'
    })
  ).toThrow(/README.md has no reference block: it needs the line <!-- dyno:reference:start/)
})

it('keeps the project README\'s reference block in the written form', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
  const block = readme.slice(readme.indexOf(REFERENCE_START), readme.indexOf(REFERENCE_END))
  expect(block).toMatch(/Run `\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{6}`: /)
  expect(block).toMatch(/\| framework \| version \| /)
})

afterAll(() => runs.expectNoneLeft(expect))
