// @ts-check
// The wall-clock measure's part of report.md and report.html: per scenario a table fastest first (rank group, req/s and its 95% interval,
// the factor against the slowest, p50 and p99 from the merged histograms, errors, flags) with the spread between rounds and the neighbours
// the data cannot tell apart; the charts of report.html (scenario-charts.js, drawn by html/report-client.js); and each scenario's warm-up,
// classified. Every figure comes from the result files.
import { exchangeOf, scenarioProtocolText } from '../../../records/result-protocol.js'
import { SCENARIOS } from '@dyno/scenarios'
import { atMachineLimit } from '../../../load/engines/index.js'
import { formatInteger, formatMs } from '../../../platform/text/format.js'
import { escapeHtml } from '../../../platform/text/html-text.js'
import { markdownCell as cell } from '../../../platform/text/markdown-cell.js'
import { intervalText, rankNotes, rankText } from '../../../records/rank-text.js'
import { reportRows } from './report-rows.js'
import { scenarioChartsOf } from './scenario-charts.js'
import { wallClockOverview } from './overview.js'
import { WARMUP_COLUMNS, WARMUP_FIGURE_COLUMNS, warmupCells, warmupClassification } from './warmup-classification-model.js'
import { loadTimesText } from '../../load-settings.js'

const CLIENT_FILE = new URL('./html/report-client.js', import.meta.url)

/** @typedef {import('./report-rows.js').ReportRow} ReportRow */

/** @param {ReportRow} row */
function flags (row) {
  const notes = []
  if (row.records.some(atMachineLimit)) {
    notes.push('**‡ limit of this machine**: the native engine, the fastest here, was generator-bound')
  } else if (row.records.some((record) => record.summary?.generatorBound)) {
    notes.push('**generator-bound**: measures the load generator, not the framework')
  }
  for (const record of row.records.filter((candidate) => candidate.interference?.disturbed)) {
    notes.push(`**disturbed**${record.repeat.of > 1 ? ` (run ${record.repeat.index})` : ''}: ${record.interference?.detail}`)
  }
  for (const record of row.records.filter((candidate) => candidate.consistency?.passed === false)) {
    notes.push(`**inconsistent**${record.repeat.of > 1 ? ` (run ${record.repeat.index})` : ''}: ` +
      (record.consistency?.checks ?? []).filter((check) => !check.passed).map((check) => `${check.name}: ${check.detail}`).join('; '))
  }
  for (const record of row.records.filter((candidate) => candidate.status !== 'ok')) {
    notes.push(`${record.status}${record.repeat.of > 1 ? ` (run ${record.repeat.index})` : ''}: ${record.reason}`)
  }
  return notes.join('; ')
}

/**
 * The run's scenarios as markdown tables, each with its warm-up classified.
 * @param {import('../../../records/read-run.js').RunData} run
 * @param {{ mixed: string | null }} context mixed: what a run merged from machines that differ says over every table
 * @returns {string[]}
 */
function markdownBody (run, { mixed }) {
  const lines = []
  const repeated = run.records.some((record) => record.repeat.of > 1)
  const warmups = warmupClassification([run])
  for (const [scenario, rows] of reportRows(run)) {
    const levels = [...new Set(rows.map((row) => row.connections))]
    const sweep = levels.length > 1
    // A scenario in another protocol says what its connections spoke; a WebSocket's figures are per message.
    const results = run.records.filter((record) => record.scenario.name === scenario)
    const protocol = scenarioProtocolText(results)
    const protocolLine = protocol ? [`Protocol: ${cell(protocol)}.`, ''] : []
    const per = results[0] && exchangeOf(results[0]) === 'msg' ? { rate: 'msg/s', latency: ' ms/msg' } : { rate: 'req/s', latency: ' ms' }
    lines.push(`## ${scenario}`, '', ...(mixed ? [`> ${mixed}`, ''] : []), ...protocolLine)
    const rankHead = rows.some((row) => row.aggregate?.rankedBy === 'cost') ? 'rank on cost' : 'rank'
    lines.push(`| ${rankHead} | framework | version |${sweep ? ' conns |' : ''} ${per.rate} |${repeated ? ' 95% interval |' : ''}` +
      ` × slowest | p50${per.latency} | p99${per.latency} | errors | flags |`)
    lines.push(`|---:|---|---|${sweep ? '---:|' : ''}---:|${repeated ? '---:|' : ''}---:|---:|---:|---:|---|`)
    for (const row of rows) {
      const slowest = Math.min(...rows
        .filter((other) => other.aggregate && other.connections === row.connections)
        .map((other) => /** @type {NonNullable<typeof other.aggregate>} */ (other.aggregate).requestsPerSec.center))
      const rate = row.aggregate?.requestsPerSec
      const errors = row.records.reduce((sum, record) => sum + (record.summary?.errors ?? 0), 0)
      lines.push(`| ${rankText(row.aggregate?.rank)} | ${cell(row.sut)} | ${cell(row.version)} |${sweep ? ` ${row.connections} |` : ''} ` +
        `${rate ? formatInteger(rate.center) : '-'} |${repeated ? ` ${intervalText(rate?.interval95)} |` : ''}` +
        ` ${rate && slowest > 0 ? `${(rate.center / slowest).toFixed(2)}×` : '-'} | ${formatMs(row.aggregate?.latencyMs?.p50)} |` +
        ` ${formatMs(row.aggregate?.latencyMs?.p99)} |` +
        ` ${formatInteger(errors)} | ${cell(flags(row))} |`)
    }
    const notes = levels.flatMap((connections) => rankNotes(rows.filter((row) => row.connections === connections && row.aggregate)
      .map((row) => /** @type {NonNullable<typeof row.aggregate>} */ (row.aggregate)))
      .map((note) => sweep ? `${connections} connections: ${note}` : note))
    lines.push('', ...(notes.length > 0 ? [...notes.map((note) => `- ${note}`), ''] : []))
    lines.push(...warmupLines(warmups.get(scenario) ?? null, false))
  }
  return [...lines, ...roundLines(run, mixed)]
}

/** @param {import('../../../records/result-record.js').ResultRecord} record @returns {string} its status, disturbed, inconsistent */
const roundStatus = (record) => [record.status, record.interference?.disturbed ? 'disturbed' : null,
  record.consistency?.passed === false ? 'inconsistent' : null].filter(Boolean).join(', ')

/**
 * Every round of the run as it was measured, in the order it ran: `dyno run --verbose` prints the same table.
 * @param {import('../../../records/read-run.js').RunData} run
 * @param {string | null} mixed what a run merged from machines that differ says over every table
 * @returns {string[]}
 */
function roundLines (run, mixed) {
  const sweep = new Set(run.records.map((record) => record.load.connections)).size > 1
  return [
    '## Every round', '', ...(mixed ? [`> ${mixed}`, ''] : []),
    'In the order the rounds ran; req/s and latency of each round alone (the tables above combine the rounds of each cell).', '',
    `| framework | scenario |${sweep ? ' conns |' : ''} round | req/s | p50 ms | p99 ms | errors | non-2xx | status |`,
    `|---|---|${sweep ? '---:|' : ''}---:|---:|---:|---:|---:|---:|---|`,
    ...run.records.map((record) => `| ${cell(record.sut.label ?? record.sut.name)} | ${cell(record.scenario.name)} |` +
      `${sweep ? ` ${record.load.connections} |` : ''} ${record.repeat.index}/${record.repeat.of} |` +
      ` ${formatInteger(record.summary?.requestsPerSec.mean)} | ${formatMs(record.summary?.latencyMs?.p50)} |` +
      ` ${formatMs(record.summary?.latencyMs?.p99)} | ${formatInteger(record.summary ? record.summary.errors : null)} |` +
      ` ${formatInteger(record.summary ? record.summary.non2xx : null)} | ${cell(roundStatus(record))} |`),
    ''
  ]
}

/**
 * A scenario's cells' warm-up as classified, as a table under its own heading; nothing when none of its results has a classification.
 * @param {import('./warmup-classification-model.js').WarmupSection | null} warmup
 * @param {boolean} withRun several runs set side by side: a column names each row's run
 * @returns {string[]}
 */
function warmupLines (warmup, withRun) {
  if (!warmup) return []
  const columns = WARMUP_COLUMNS.filter((column) => withRun || column !== 'run')
  return [
    `### Warm-up, classified: ${warmup.scenario}`,
    '',
    `At ${warmup.connections} connections, each SUT's run of median req/s: warm-up and measured windows as one series since the first ` +
      'request, classified by the change points of its throughput (and of its p50). Before / after: either side of the steady start; ' +
      '`-` where the runtime does not report it (the last column says why).',
    '',
    `| ${columns.join(' | ')} |`,
    `|${columns.map((column) => WARMUP_FIGURE_COLUMNS.includes(column) ? '---:' : '---').join('|')}|`,
    ...warmup.rows.map((row) => `| ${warmupCells(row, withRun).map(cell).join(' | ')} |`),
    ''
  ]
}

/**
 * Several runs side by side (for example Node 20 against Node 22): per scenario and connection level, each SUT's req/s (the geometric mean
 * of its runs) and p99 in every run, and the req/s of each later run relative to the first.
 * @param {import('../../../records/read-run.js').RunData[]} runs @param {string[]} labels what tells the runs apart
 * @param {{ mixed: string[] }} context the lines a run merged from machines that differ puts over every table
 * @returns {string[]}
 */
function sideBySide (runs, labels, { mixed }) {
  const perRun = runs.map((run) => reportRows(run))
  const scenarios = [...new Set(perRun.flatMap((rows) => [...rows.keys()]))]
  const lines = []
  const warmups = warmupClassification(runs)
  for (const scenario of scenarios) {
    lines.push(`## ${scenario}`, '', ...(mixed.length > 0 ? [...mixed, ''] : []))
    lines.push(`| framework | conns |${labels.map((label) => ` ${cell(label)} req/s | p99 ms |`).join('')}` +
      `${labels.slice(1).map((label) => ` ${cell(label)} vs ${cell(labels[0])} |`).join('')}`)
    lines.push(`|---|---:|${labels.map(() => '---:|---:|').join('')}${labels.slice(1).map(() => '---:|').join('')}`)
    const keys = [
      ...new Map(perRun.flatMap((rows) => (rows.get(scenario) ?? []).map((row) => [`${row.sut}@${row.connections}`, row]))).values()
    ]
    for (const key of keys) {
      const rows = perRun.map((scenarioRows) =>
        (scenarioRows.get(scenario) ?? []).find((row) => row.sut === key.sut && row.connections === key.connections)
      )
      const figures = rows.map((row) => row?.aggregate?.requestsPerSec.center ?? null)
      lines.push(`| ${cell(key.sut)} | ${key.connections} |` +
        `${rows.map((row, index) => ` ${figures[index] === null ? (row ? row.records[0].status : '-') : formatInteger(figures[index])} |` +
          ` ${formatMs(row?.aggregate?.latencyMs?.p99)} |`).join('')}` +
        `${figures.slice(1).map((value) => ` ${value !== null && figures[0] ? `${(value / figures[0]).toFixed(2)}×` : '-'} |`).join('')}`)
    }
    lines.push('', ...warmupLines(warmups.get(scenario) ?? null, true))
  }
  return lines
}

/**
 * The charts a scenario has data for; each div names its chart kind and section for the drawing script.
 * @param {import('./scenario-charts.js').ScenarioCharts} section
 * @param {number} index
 * @param {string} mixed what a run merged from machines that differ says over every table and chart (html), or ''
 */
function scenarioSection (section, index, mixed) {
  const has = (/** @type {{ points: unknown[] }[]} */ series) => series.some((entry) => entry.points.length > 0)
  const charts = [
    section.throughput.series.some((entry) => entry.values.some((value) => value !== null)) && 'throughput',
    has(section.latencyOverTime.series) && 'latencyOverTime',
    has(section.latencyDistribution.series) && 'latencyDistribution',
    section.connectionSweep && 'sweepThroughput',
    section.connectionSweep && 'sweepP99',
    has(section.resourcesOverTime.cpu) && 'cpu',
    has(section.resourcesOverTime.rss) && 'rss',
    section.requestsPerCpuSec.series.some((entry) => entry.values.some((value) => value !== null)) && 'requestsPerCpuSec'
  ].filter(Boolean)
  const slug = section.scenario.replace(/[^a-z0-9-]/gi, '-')
  const body = charts.length === 0
    ? '<p class="note">No run of this scenario was ok: nothing to draw (see the table of failed, invalid and skipped runs).</p>'
    : `<div class="charts">${charts.map((chart) =>
      `<div class="chart" id="chart-${slug}-${chart}" data-chart="${chart}" data-section="${index}"></div>`).join('')}</div>`
  return `<section id="scenario-${slug}">
<h2>${escapeHtml(section.scenario)}</h2>
${mixed}<p class="summary">${escapeHtml(section.summary)}</p>
${section.protocol ? `<p class="protocol">Protocol: ${escapeHtml(section.protocol)}.</p>\n` : ''}
${body}
</section>`
}

/**
 * A scenario's cells' warm-up as classified: the table, and a chart per subject whose series was classified (its div names the
 * scenario's section and the subject's place among the section's warm-up charts).
 * @param {import('./warmup-classification-model.js').WarmupSection} warmup
 * @param {number} index the scenario's section
 * @param {string} mixed as scenarioSection's
 * @param {boolean} withRun several runs set side by side: a column names each row's run
 */
function warmupSection (warmup, index, mixed, withRun) {
  const slug = warmup.scenario.replace(/[^a-z0-9-]/gi, '-')
  const columns = WARMUP_COLUMNS.filter((column) => withRun || column !== 'run')
  return (
    `<section id="warmup-${slug}">
<h2>Warm-up, classified: ${escapeHtml(warmup.scenario)}</h2>
${mixed}<p class="note">At ${warmup.connections} connections, each SUT's run of median req/s: its warm-up and measured windows ` +
    'as one series since the first request, classified by the change points of its throughput (and, beside it, of its p50): flat, ' +
    'warm-up (the last level is the best), slowdown (an earlier level was better) or no steady state (it still changed near the end). ' +
    "Before and after: either side of the steady state's start, from the runtime's own events; '-' where the runtime does not report " +
    `them (the last column says why).</p>
<table class="warmup"><thead><tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>
${warmup.rows
  .map(
    (row) =>
      `<tr>${warmupCells(row, withRun)
        .map((value) => `<td>${escapeHtml(value)}</td>`)
        .join('')}</tr>`
  )
  .join('\n')}
</tbody></table>
${
  warmup.charts.length === 0
    ? ''
    : `<div class="charts">${warmup.charts
        .map(
          (_, subject) =>
            `<div class="chart tall" id="chart-warmup-${slug}-${subject}" data-chart="warmup" ` +
            `data-section="${index}" data-subject="${subject}"></div>`
        )
        .join('')}</div>`
}
</section>`
  )
}

/** @type {import('../../measure.js').ReportSections} */
export const WALL_CLOCK_REPORT = Object.freeze({
  overview: (run) => wallClockOverview(run),
  markdownBody,
  loadLine: (run) => {
    const { options } = run.index
    const first = run.records[0]
    return (
      `${first ? `${first.load.engine} ${first.load.engineVersion}` : '-'}, profile ${options.profile ?? '-'}, ` +
      `connections ${[].concat(options.connections ?? []).join(', ') || '-'}, ` +
        `${first ? loadTimesText(first.load) : `${options.warmupSec ?? '-'} s warm-up + ${options.durationSec ?? '-'} s`}, ` +
      `${options.repeats ?? 1} repeat${(options.repeats ?? 1) > 1 ? 's' : ''}` +
      (options.ratePerSec ? `, open model at ${options.ratePerSec} req/s` : '')
    )
  },
  html: (runs, { mixed }) => {
    const charts = scenarioChartsOf(runs, {
      scenarioSummaries: Object.fromEntries(SCENARIOS.map((scenario) => [scenario.name, scenario.summary]))
    })
    const warmup = warmupClassification(runs)
    // Each scenario with its cells' warm-up as classified (null: none of its results has a classification).
    const scenarios = charts.map((section) => ({ ...section, warmup: warmup.get(section.scenario) ?? null }))
    const sections = scenarios.map((section, index) => scenarioSection(section, index, mixed) +
      (section.warmup ? `\n${warmupSection(section.warmup, index, mixed, runs.length > 1)}` : '')).join('\n')
    // The window the runs were cut into, as recorded (several widths when runs differ).
    const widths = [...new Set(runs.flatMap((run) => run.records.map((record) => record.load.windowMs)).filter(Boolean))]
    return { scenarios, windowLabel: `${widths.join(' / ') || '-'} ms windows`, sections, scripts: [CLIENT_FILE] }
  },
  sideBySide
})
