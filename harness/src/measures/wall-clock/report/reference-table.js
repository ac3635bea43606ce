// @ts-check
// The README's reference table: one real run as a framework × scenario matrix of req/s with rank groups, with the
// environment it was measured in. Written between two markers by `pnpm readme:reference`, never by hand.
import { atMachineLimit } from '../../../load/engines/index.js'
import { GENERATOR_BOUND_RULE } from '../../../platform/resources/resource-defaults.js'
import { formatInteger } from '../../../platform/text/format.js'
import { rankGroupText } from '../../../records/rank-text.js'
import { RANK_FDR } from '../../../judging/stats/rank-groups.js'
import { reportRows } from './wall-clock-report.js'

export const REFERENCE_START = '<!-- dyno:reference:start (written by `pnpm readme:reference RUN_DIR`; do not edit by hand) -->'
export const REFERENCE_END = '<!-- dyno:reference:end -->'

/**
 * @param {import('../../../records/read-run.js').RunData} run
 * @returns {string} the block, markers included
 */
export function referenceTable (run) {
  const perScenario = reportRows(run)
  const scenarios = [...perScenario.keys()]
  /** @type {Map<string, { version: string, cells: Map<string, string>, json: number }>} */
  const subjects = new Map()
  for (const [scenario, rows] of perScenario) {
    for (const row of rows) {
      const subject = subjects.get(row.sut) ?? { version: row.version, cells: new Map(), json: -1 }
      subjects.set(row.sut, subject)
      subject.cells.set(scenario, cellText(row))
      if (scenario === 'json' && row.aggregate) subject.json = row.aggregate.requestsPerSec.center
    }
  }
  const ordered = [...subjects].sort((a, b) => b[1].json - a[1].json || a[0].localeCompare(b[0]))
  const groups = run.aggregates.some((aggregate) => aggregate.noise)
  const { env } = run.index
  const first = run.records[0]
  const pinning = first?.load.pinning
  const levels = [...new Set(run.records.map((record) => record.load.connections))].join(', ')
  return [
    REFERENCE_START,
    `Run \`${run.index.runId}\`: ${env.cpu.model}, ${env.cpu.cores} cores, ${Math.round(env.memoryBytes / 2 ** 30)} GiB, ` +
      `${env.os.type} ${env.os.release}, ` +
      `Node ${env.node}; ${
        first
          ? `measured by ${[...new Set(run.records.map((record) => `${record.load.engine} ${record.load.engineVersion}`))].join(' and ')}` +
            `${run.index.engineChoice?.by === 'calibration' ? ` (${run.index.engineChoice.reason})` : ''}, ${levels} connections, ` +
            `${first.load.warmupSec} s warm-up + ${first.load.durationSec} s per cell, ` +
            `${first.repeat.of} round${first.repeat.of > 1 ? 's, each a fresh launch of the SUT' : ''}`
          : 'no runs'
      }; ` +
      `${pinning?.pinned
? `SUT on cpu ${pinning.sutCpus?.join(',')}, load generator on cpu ` +
        `${pinning.generatorCpus?.join(',')}`
: 'not pinned'}; ` +
      `commit ${String(env.git.commit ?? 'unknown').slice(0, 12)}.`,
    '',
    `| framework | version | ${scenarios.join(' | ')} |`,
    `|---|---|${scenarios.map(() => '---:|').join('')}`,
    ...ordered.map(
      ([name, subject]) =>
        `| ${name} | ${subject.version} | ${scenarios.map((scenario) => subject.cells.get(scenario) ?? '').join(' | ')} |`
    ),
    '',
    `${
      groups
        ? 'Req/s: the geometric mean of the rounds. In parentheses its rank group: (2–4) means the data places it anywhere from ' +
          '2nd to 4th in its column, as it cannot tell it apart from the frameworks it shares those places with. Method: on ' +
          "ln(req/s) of the rounds, a 95% t interval with each cell's spread moderated towards the spread pooled over its column; " +
          `two frameworks told apart by a Welch t test, Benjamini–Hochberg at a ${RANK_FDR * 100}% false discovery rate ` +
          '(docs/measuring.md, "Orders with their uncertainty"). '
        : 'Req/s; one round per cell: no rank groups. '
    }Every cell measured by the same engine. ` +
      `† generator-bound (${GENERATOR_BOUND_RULE}): the figure measures the generator more than the framework; ` +
      '‡ the native engine, the fastest here, was generator-bound: the limit of this machine. ' +
      '"skipped", "invalid", "failed": see the run\'s report.md for the reason.',
    REFERENCE_END
  ].join('\n')
}

/** @param {import('./wall-clock-report.js').ReportRow} row */
function cellText (row) {
  if (!row.aggregate) return row.records[0]?.status ?? '-'
  const bound = row.records.filter((record) => record.summary?.generatorBound)
  const mark = bound.length === 0 ? '' : bound.some(atMachineLimit) ? ' ‡' : ' †'
  const group = rankGroupText(row.aggregate)
  return `${formatInteger(row.aggregate.requestsPerSec.center)}${mark}${group ? ` (${group})` : ''}`
}

/**
 * The README with its reference block replaced.
 * @param {string} readme
 * @param {string} block
 * @returns {string}
 * @throws {Error} when the README has no markers
 */
export function replaceReferenceBlock (readme, block) {
  const start = readme.indexOf(REFERENCE_START)
  const end = readme.indexOf(REFERENCE_END)
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`README.md has no reference block: it needs the line ${REFERENCE_START} and, after it, ${REFERENCE_END}`)
  }
  return readme.slice(0, start) + block + readme.slice(end + REFERENCE_END.length)
}
