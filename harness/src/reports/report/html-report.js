// @ts-check
// report.html: one file that opens offline from file://. The chart library (ECharts, from node_modules),
// the drawing script, the stylesheet and the data are all inlined; nothing is fetched.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { SCENARIOS } from '@dyno/scenarios'
import { COUNT_COLUMNS, countRows, countSettingsLine, isCountRun } from './instruction-count-rows.js'
import { reportModel } from './report-model.js'
import { WARMUP_COLUMNS, warmupCells, warmupClassification } from './warmup-classification-model.js'

const require = createRequire(import.meta.url)
const ECHARTS_FILE = require.resolve('echarts/dist/echarts.min.js')
const ECHARTS_VERSION = require('echarts/package.json').version
const CLIENT_FILE = new URL('./html/report-client.js', import.meta.url)
const STYLE_FILE = new URL('./html/report.css', import.meta.url)

/** @param {unknown} text */
const escapeHtml = (text) => String(text ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
/** Inlined script text must not close its own element. @param {string} source */
const inlineScript = (source) => source.replace(/<\/script/gi, '<\\/script')

/**
 * @param {import('../../records/read-run.js').RunData[]} runs one run, or several to set side by side
 * @returns {string} the whole page
 */
export function htmlReport (runs) {
  const base = reportModel(runs, { scenarioSummaries: Object.fromEntries(SCENARIOS.map((scenario) => [scenario.name, scenario.summary])) })
  const warmup = warmupClassification(runs)
  const model = {
    ...base,
    // Each scenario with its cells' warm-up as classified (null: none of its results has a classification).
    scenarios: base.scenarios.map((section) => ({ ...section, warmup: warmup.get(section.scenario) ?? null })),
    // The window the runs were cut into, as recorded (several widths when runs differ).
    windowLabel: `${[...new Set(runs.flatMap((run) => run.records.map((record) => record.load.windowMs)).filter(Boolean))].join(' / ') || '-'} ms windows`
  }
  const counts = runs.length === 1 && isCountRun(runs[0])
  const mixed = model.mixedMachines ? `<p class="mixed">${escapeHtml(model.mixedMachines)}</p>` : ''
  const sections = counts
    ? countSections(runs[0])
    : model.scenarios.map((section, index) => scenarioSection(section, index, mixed) +
      (section.warmup ? `\n${warmupSection(section.warmup, index, mixed, runs.length > 1)}` : '')).join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(model.title)}</title>
<style>${readFileSync(STYLE_FILE, 'utf8')}</style>
</head>
<body>
<h1>${escapeHtml(model.title)}</h1>
${mixed}
<p class="note">Written by dyno from the result files of ${runs.map((run) => `<code>${escapeHtml(run.dir)}</code>`).join(', ')}. ` +
    `Charts: ECharts ${escapeHtml(ECHARTS_VERSION)}, inlined.</p>
<h2>Environment</h2>
${environmentTable(model.runs)}
<h2>Failed, invalid and skipped runs, and results that disagree with themselves</h2>
${problemTable(model.problems)}
${sections}
<script id="dyno-model" type="application/json">${JSON.stringify(model).replace(/</g, '\\u003c')}</script>
<script>${inlineScript(readFileSync(ECHARTS_FILE, 'utf8'))}</script>
<script>${inlineScript(readFileSync(CLIENT_FILE, 'utf8'))}</script>
</body>
</html>
`
}

/**
 * The charts a scenario has data for; each div names its chart kind and section for the drawing script.
 * @param {import('./report-model.js').ScenarioCharts} section
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
  return `<section id="warmup-${slug}">
<h2>Warm-up, classified: ${escapeHtml(warmup.scenario)}</h2>
${mixed}<p class="note">At ${warmup.connections} connections, each SUT's run of median req/s: its warm-up and measured windows as one series ` +
    'since the first request, classified by the change points of its throughput (and, beside it, of its p50): flat, warm-up (the last level ' +
    'is the best), slowdown (an earlier level was better) or no steady state (it still changed near the end). Before and after: either ' +
    `side of the steady state's start, from the runtime's own events; '-' where the runtime does not report them (the last column says why).</p>
<table class="warmup"><thead><tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>
${warmup.rows.map((row) => `<tr>${warmupCells(row, withRun).map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`)
    .join('\n')}
</tbody></table>
${warmup.charts.length === 0
    ? ''
    : `<div class="charts">${warmup.charts.map((_, subject) => `<div class="chart tall" id="chart-warmup-${slug}-${subject}" data-chart="warmup" ` +
      `data-section="${index}" data-subject="${subject}"></div>`).join('')}</div>`}
</section>`
}

/**
 * A run of instruction counts: per scenario the counts as a table (no load, so no charts of load).
 * @param {import('../../records/read-run.js').RunData} run
 */
function countSections (run) {
  const intro = `<p class="note">Instructions per request, counted under ${escapeHtml(countSettingsLine(run))}.</p>`
  return intro + [...countRows(run)].map(([scenario, rows]) => `<section id="scenario-${scenario.replace(/[^a-z0-9-]/gi, '-')}">
<h2>${escapeHtml(scenario)}</h2>
<table class="counts"><thead><tr>${COUNT_COLUMNS.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>
${rows.map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>
</section>`).join('\n')
}

/** @type {[string, (run: import('./report-model.js').ReportModel['runs'][number]) => string][]} a run across hosts: where, and the link */
const hostRows = [
  ['hosts', (run) => run.hosts.hosts.join('; ') || 'this machine'],
  ['link', (run) => run.hosts.link ?? '-']
]

/** @param {import('./report-model.js').ReportModel['runs']} runs */
function environmentTable (runs) {
  /** @type {[string, (run: import('./report-model.js').ReportModel['runs'][number]) => string][]} */
  const rows = [
    ['run', (run) => `${run.runId} (${run.status})`],
    ...(runs.some((run) => run.parts) ? /** @type {typeof rows} */ ([['merged from', (run) => run.parts ?? '-']]) : []),
    ['CPU', (run) => `${run.env.cpu.model}, ${run.env.cpu.cores} cores, ${Math.round(run.env.memoryBytes / 2 ** 30)} GiB`],
    ['OS', (run) => `${run.env.os.type} ${run.env.os.release} (${run.env.os.arch})`],
    ['Node (harness)', (run) => run.env.node],
    ['load generator', (run) => run.engine ?? '-'],
    ['load', (run) => run.load],
    ['runtimes', (run) => run.runtimes],
    ['pinning', (run) => run.pinning],
    ...(runs.some((run) => run.hosts.hosts.length > 0) ? hostRows : []),
    ['services', (run) => Object.entries(run.env.services ?? {}).map(([name, service]) => `${name} ${/** @type {any} */ (service).version}`).join(', ') || '-'],
    ['commit', (run) => `${run.env.git.commit ?? 'unknown'}${run.env.git.dirty ? ' (uncommitted changes)' : ''}`]
  ]
  return `<table><thead><tr><th></th>${runs.map((run) => `<th>${escapeHtml(run.label)}</th>`).join('')}</tr></thead><tbody>
${rows.map(([name, value]) => `<tr><th>${escapeHtml(name)}</th>${runs.map((run) => `<td>${escapeHtml(value(run))}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>`
}

/** @param {import('./report-model.js').ReportModel['problems']} problems */
function problemTable (problems) {
  if (problems.length === 0) return '<p>None: every run was ok.</p>'
  return '<table id="problems"><thead><tr><th>run</th><th>SUT</th><th>scenario</th><th>conns</th>' +
    `<th>repeat</th><th>status</th><th>code</th><th>reason</th></tr></thead><tbody>
${problems.map((problem) => `<tr><td>${escapeHtml(problem.run)}</td><td>${escapeHtml(problem.sut)}</td><td>${escapeHtml(problem.scenario)}</td>` +
  `<td>${problem.connections}</td><td>${escapeHtml(problem.repeat)}</td>` +
  `<td class="status-${escapeHtml(problem.status)}">${escapeHtml(problem.status)}</td><td>${escapeHtml(problem.errorCode ?? '')}</td>` +
  `<td class="reason">${escapeHtml(problem.reason)}</td></tr>`).join('\n')}
</tbody></table>`
}
