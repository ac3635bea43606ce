// @ts-check
// The capacity measure's part of report.md, report.html and the terminal: per scenario the capacity table (highest first, with its 95%
// interval over the launches and its rank group), and in report.html a chart per scenario of latency (p50 and p99, log scale) against the
// offered rate, a line per SUT through its steps, the objective as a horizontal line and each SUT's capacity marked; beside it the
// connections sweep (p99 against connections, closed loop), which report.md and the terminal give as a table. Every figure comes from the
// result files.
import { escapeHtml } from '../../platform/text/html-text.js'
import { markdownCell } from '../../platform/text/markdown-cell.js'
import { formatInteger } from '../../platform/text/format.js'
import { capacityCells, capacityTable, CAPACITY_COLUMNS, CAPACITY_FIGURE_COLUMNS } from './capacity-table.js'
import { sweepRows, sweepTable } from './connection-sweep.js'
import { parseObjective } from './objective.js'

const CLIENT_FILE = new URL('./html/capacity-client.js', import.meta.url)

/**
 * @typedef {import('../../records/read-run.js').RunData} RunData
 * @typedef {import('./capacity-table.js').CapacityRow} CapacityRow
 * @typedef {{ sut: string, launch: number, points: { offeredPerSec: number, p50: number | null, p99: number | null, held: boolean,
 *   generatorBehind: boolean }[], capacityPerSec: number | null }} CurveLaunch one launch's steps, by offered rate
 * @typedef {{ scenario: string, objective: import('./objective.js').ObjectiveTerm[], launches: CurveLaunch[],
 *   capacities: { sut: string, capacityPerSec: number }[], sweep: import('./connection-sweep.js').SweepRow[] }} CapacityChart
 */

/** What a sweep table says under it, once per report. */
const SWEEP_NOTE = 'Connections sweep: after the search, the same launch of each SUT in a closed loop at each number of connections; ' +
  'p99 from each send, the median over the launches; "failed": errors (refused or reset connections, timeouts) and wrong answers, ' +
  'summed over the launches; "gen": the generator\'s cpu set the pace there; failures from: the fewest connections at which any ' +
  'launch failed a request or got no response at all.'

/** @param {CapacityRow[]} rows a scenario's @returns {import('./connection-sweep.js').SweepRow[]} */
const scenarioSweep = (rows) => sweepRows(rows.flatMap((row) => row.records))

/** What a capacity table says under it, once per report. */
const TABLE_NOTE = 'Capacity: the highest offered rate (open model, latency from each intended send time) at which the achieved rate ' +
  'was at least 99 % of the offered one, every term of the objective held and no request failed; the figure is the geometric mean over ' +
  'fresh launches of the SUT, with its 95 % interval and rank group (as the req/s tables have them); where a launch held not even ' +
  'the lowest step, the median of the launches (that launch below the lowest step) with the interval of the median and its ' +
  'confidence, not ranked. Closed loop: the rate the same ' +
  'connections reached sending as fast as the SUT answered, before the steps.'

/**
 * The run's capacity tables as markdown lines.
 * @param {RunData} run @param {{ mixed: string | null }} context
 * @returns {string[]}
 */
function markdownBody (run, { mixed }) {
  const lines = [TABLE_NOTE, '']
  for (const [scenario, rows] of capacityTable(run.records)) {
    lines.push(`## ${scenario}`, '', ...(mixed ? [`> ${mixed}`, ''] : []), `Objective: \`${rows[0]?.objective ?? '-'}\`.`, '')
    lines.push(`| ${CAPACITY_COLUMNS.join(' | ')} |`,
      `|${CAPACITY_COLUMNS.map((_, index) => CAPACITY_FIGURE_COLUMNS.includes(index) ? '---:' : '---').join('|')}|`,
      ...rows.map((row) => `| ${capacityCells(row).map(markdownCell).join(' | ')} |`), '')
    const sweep = scenarioSweep(rows)
    if (sweep.length === 0) continue
    const table = sweepTable(sweep)
    lines.push(`Connections sweep, ${scenario}: ${SWEEP_NOTE.replace(/^Connections sweep: /, '')}`, '',
      `| ${table.columns.join(' | ')} |`,
      `|${table.columns.map((_, index) => table.figureColumns.includes(index) ? '---:' : '---').join('|')}|`,
      ...table.cells.map((cells) => `| ${cells.map(markdownCell).join(' | ')} |`), '')
  }
  return lines
}

/** @param {string[]} columns @param {string[][]} cells @param {number[]} figureColumns @returns {string[]} lines, columns padded */
function paddedLines (columns, cells, figureColumns) {
  const table = [columns, ...cells]
  const widths = columns.map((_, column) => Math.max(...table.map((row) => row[column].length)))
  // The last column is left unpadded: it is prose.
  return table.map((row) => row.map((value, column) => column === row.length - 1
    ? value
    : figureColumns.includes(column) ? value.padStart(widths[column]) : value.padEnd(widths[column])).join('  '))
}

/**
 * The capacity tables for the terminal: one block per scenario, columns padded.
 * @param {import('../../records/result-record.js').ResultRecord[]} records
 * @returns {string}
 */
export function formatCapacityTable (records) {
  const blocks = []
  for (const [scenario, rows] of capacityTable(records)) {
    const text = paddedLines(CAPACITY_COLUMNS.slice(), rows.map(capacityCells), [...CAPACITY_FIGURE_COLUMNS])
    blocks.push(`capacity, ${scenario} (objective ${rows[0]?.objective ?? '-'}):\n${text.join('\n')}`)
    const sweep = scenarioSweep(rows)
    if (sweep.length === 0) continue
    const table = sweepTable(sweep)
    blocks.push(`connections sweep, ${scenario} (closed loop, p99 from each send, median over launches):\n` +
      paddedLines(table.columns, table.cells, table.figureColumns).join('\n'))
  }
  return blocks.join('\n\n')
}

/**
 * The terms of a record's objective, each with its text as given, to draw and label.
 * @param {import('../../records/result-record.js').ResultRecord | undefined} record
 * @returns {import('./objective.js').ObjectiveTerm[]}
 */
function chartObjective (record) {
  const parsed = parseObjective(record?.capacity?.objective ?? '')
  if ('objective' in parsed) return parsed.objective.terms
  // A record whose text this dyno does not take: its steps' terms, as numbers.
  return (record?.capacity?.steps[0]?.objective ?? [])
    .map(({ percentile, maxMs }) => ({ percentile, maxMs, text: `p${percentile}<=${maxMs}ms` }))
}

/**
 * What each scenario's chart draws.
 * @param {RunData[]} runs @returns {CapacityChart[]}
 */
export function capacityCharts (runs) {
  const records = runs.flatMap((run) => run.records)
  return [...capacityTable(records)].map(([scenario, rows]) => {
    const first = rows.flatMap((row) => row.records).find((record) => record.capacity)
    return {
      scenario,
      objective: chartObjective(first),
      launches: rows.flatMap((row) => row.records.filter((record) => record.capacity).map((record) => ({
        sut: row.sut,
        launch: record.repeat.index,
        points: [...(record.capacity?.steps ?? [])].filter((step) => !step.cutShort).sort((a, b) => a.offeredPerSec - b.offeredPerSec)
          .map((step) => ({
            offeredPerSec: step.offeredPerSec,
            p50: step.latencyMs?.p50 ?? null,
            p99: step.latencyMs?.p99 ?? null,
            held: step.held,
            generatorBehind: step.generatorBehind
          })),
        capacityPerSec: record.status === 'ok' ? record.capacity?.capacityPerSec ?? null : null
      }))),
      capacities: rows.filter((row) => row.center !== null)
        .map((row) => ({ sut: row.sut, capacityPerSec: /** @type {number} */ (row.center) })),
      sweep: scenarioSweep(rows)
    }
  })
}

/** @param {CapacityRow[]} rows @param {string} scenario @param {number} index @param {string} mixed */
function htmlSection (rows, scenario, index, mixed) {
  const slug = scenario.replace(/[^a-z0-9-]/gi, '-')
  const sweep = scenarioSweep(rows)
  return `<section id="capacity-${slug}">
<h2>${escapeHtml(scenario)}: capacity within ${escapeHtml(rows[0]?.objective ?? '-')}</h2>
${mixed}<table class="capacity"><thead><tr>${CAPACITY_COLUMNS.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead>
<tbody>
${rows.map((row) => `<tr>${capacityCells(row).map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>
<div class="charts"><div class="chart tall" id="chart-capacity-${slug}" data-capacity-chart="${index}"></div>${sweep.length > 0
  ? `<div class="chart tall" id="chart-sweep-${slug}" data-sweep-chart="${index}"></div>`
  : ''}</div>
${sweep.length > 0 ? sweepHtmlTable(sweep) : ''}
</section>`
}

/** @param {import('./connection-sweep.js').SweepRow[]} sweep @returns {string} */
function sweepHtmlTable (sweep) {
  const table = sweepTable(sweep)
  return `<table class="capacity sweep"><thead><tr>${table.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead>
<tbody>
${table.cells.map((cells) => `<tr>${cells.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>`
}

/** @type {import('../measure.js').ReportSections} */
export const CAPACITY_REPORT = Object.freeze({
  // Its answer at a glance is the capacity table, which the terminal prints and report.md opens its body with.
  overview: () => null,
  markdownBody,
  loadLine: (run) => {
    const first = run.records[0]
    const capacity = first?.load.capacity
    return `${first ? `${first.load.engine} ${first.load.engineVersion}` : '-'}; ` +
      `closed-loop ceiling ${first?.load.warmupSec ?? '-'} s warmup + ` +
      `${first?.load.durationSec ?? '-'} s at ${first?.load.connections ?? '-'} connections, then open-model steps of ` +
      `${capacity ? `${capacity.stepSec / 2} + ${capacity.stepSec} s from ${formatInteger(capacity.minRatePerSec)} req/s` : '-'}` +
      `${capacity?.maxRatePerSec ? ` to ${formatInteger(capacity.maxRatePerSec)} req/s` : ''}; objective ${capacity?.objective ?? '-'}; ` +
      `${run.index.options.repeats ?? 1} launch${(run.index.options.repeats ?? 1) === 1 ? '' : 'es'} per SUT`
  },
  html: (runs, { mixed }) => {
    const tables = [...capacityTable(runs.flatMap((run) => run.records))]
    const sections = `<p class="note">${escapeHtml(TABLE_NOTE)} Each chart: latency from the intended send time against the offered ` +
      'rate, p50 dashed and p99 solid, one line per launch; the objective as a horizontal line; a diamond at each SUT\'s capacity; ' +
      'a triangle where the generator fell behind its schedule (not counted). Beside it, where a sweep was measured: p99 against ' +
      `connections (both log scales), one line per SUT, a cross where requests failed. ${SWEEP_NOTE}</p>\n` +
      tables.map(([scenario, rows], index) => htmlSection(rows, scenario, index, mixed)).join('\n')
    return { scenarios: capacityCharts(runs), windowLabel: '-', sections, scripts: [CLIENT_FILE] }
  },
  sideBySide: (runs, labels) => runs.flatMap((run, at) => [`### ${labels[at]}`, '', ...markdownBody(run, { mixed: null })])
})
