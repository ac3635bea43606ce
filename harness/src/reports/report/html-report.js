// @ts-check
// report.html: one file that opens offline from file://. The chart library (ECharts, from node_modules),
// the drawing script, the stylesheet and the data are all inlined; nothing is fetched.
import { explanationsHtmlSection, reportExplanations } from '../explain/report-explanations.js'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { measureOfRun } from '../../measures/index.js'
import { escapeHtml } from '../../platform/text/html-text.js'
import { reportModel } from './report-model.js'
import { overviewSection, warningsSection } from './overview-html.js'
import { warningGroups } from '../../measures/warning-groups.js'
import { runLabels } from '../../records/run-labels.js'

const require = createRequire(import.meta.url)
const ECHARTS_FILE = require.resolve('echarts/dist/echarts.min.js')
const ECHARTS_VERSION = require('echarts/package.json').version
const STYLE_FILE = new URL('./html/report.css', import.meta.url)
const OVERVIEW_CLIENT_FILE = new URL('./html/overview-client.js', import.meta.url)

/** Inlined script text must not close its own element. @param {string} source */
const inlineScript = (source) => source.replace(/<\/script/gi, '<\\/script')

/**
 * @param {import('../../records/read-run.js').RunData[]} runs one run, or several to set side by side
 * @returns {string} the whole page
 */
export function htmlReport (runs) {
  const measure = measureOfRun(runs[0])
  const base = reportModel(runs, [])
  const mixed = base.mixedMachines ? `<p class="mixed">${escapeHtml(base.mixedMachines)}</p>` : ''
  const body = measure.report.html(runs, { mixed })
  const labels = runLabels(runs)
  // Each run's overview (a measure may have none), and its warnings grouped by cause.
  const overviews = runs.map((run, index) => ({ label: labels[index], overview: measureOfRun(run).report.overview(run) }))
    .filter((entry) => entry.overview !== null)
  const model = {
    ...base,
    scenarios: body.scenarios,
    windowLabel: body.windowLabel,
    overviews: overviews.map((entry) => /** @type {import('../../measures/overview.js').Overview} */ (entry.overview))
  }
  const opening = model.overviews.map((overview, index) => overviewSection(overview, index,
    runs.length > 1 ? `Overview: ${overviews[index].label}` : 'Overview')).join('\n')
  const warnings = warningsSection(runs.map((run, index) => ({
    label: runs.length > 1 ? labels[index] : null,
    groups: warningGroups(run.records)
  })))
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
${opening}
${warnings}
<h2>Environment</h2>
${environmentTable(model.runs)}
${body.sections}
${explanationsHtmlSection(reportExplanations(runs))}
<script id="dyno-model" type="application/json">${JSON.stringify(model).replace(/</g, '\\u003c')}</script>
<script>${inlineScript(readFileSync(ECHARTS_FILE, 'utf8'))}</script>
${[OVERVIEW_CLIENT_FILE, ...body.scripts].map((file) => `<script>${inlineScript(readFileSync(file, 'utf8'))}</script>\n`).join('')}</body>
</html>
`
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
    [
      'services',
      (run) =>
        Object.entries(run.env.services ?? {})
          .map(([name, service]) => `${name} ${/** @type {any} */ (service).version}`)
          .join(', ') || '-'
    ],
    ['commit', (run) => `${run.env.git.commit ?? 'unknown'}${run.env.git.dirty ? ' (uncommitted changes)' : ''}`]
  ]
  const cellsOf = (/** @type {(run: typeof runs[number]) => string} */ value) =>
    runs.map((run) => `<td>${escapeHtml(value(run))}</td>`).join('')
  return `<table><thead><tr><th></th>${runs.map((run) => `<th>${escapeHtml(run.label)}</th>`).join('')}</tr></thead><tbody>
${rows.map(([name, value]) => `<tr><th>${escapeHtml(name)}</th>${cellsOf(value)}</tr>`).join('\n')}
</tbody></table>`
}
