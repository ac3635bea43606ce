// @ts-check
// The instructions measure's part of report.md and report.html: per scenario, each SUT's instructions per request over all counted
// windows, the program's (V8's collector's counted apart), the bytes allocated per request, the spread of its windows, and the factor
// against the fewest, under a line saying how the counts were made. No load, so no charts of load. Every figure comes from the result
// files.
import { cpuBaselineOf, describeCpuBaseline, NO_CPU_BASELINE } from '../../records/count-baseline.js'
import { formatInteger } from '../../platform/text/format.js'
import { escapeHtml } from '../../platform/text/html-text.js'
import { markdownCell } from '../../platform/text/markdown-cell.js'
import { instructionsOverview } from './instructions-overview.js'
import { LAYER_GROUPS, layerShares } from './layer-groups.js'

const COUNT_COLUMNS = ['framework', 'version', 'instructions/req', 'program/req', 'allocated B/req', 'windows (min–max)', '× fewest',
  'responses checked', 'status']
/** The columns of COUNT_COLUMNS that hold figures (aligned right). */
const COUNT_FIGURE_COLUMNS = ['instructions/req', 'program/req', 'allocated B/req', 'windows (min–max)', '× fewest', 'responses checked']

/**
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {Map<string, string[][]>} per scenario, rows of COUNT_COLUMNS, fewest instructions first
 */
function countRows (run) {
  /** @type {Map<string, import('../../records/result-record.js').ResultRecord[]>} */
  const byScenario = new Map()
  for (const record of run.records) byScenario.set(record.scenario.name, [...(byScenario.get(record.scenario.name) ?? []), record])
  /** @type {Map<string, string[][]>} */
  const sections = new Map()
  for (const [scenario, records] of byScenario) {
    const perRequest = (/** @type {import('../../records/result-record.js').ResultRecord} */ record) =>
      record.status === 'ok' && record.instructions?.windows.length ? record.instructions.instructionsPerRequest : null
    const counted = records.map(perRequest).filter((value) => value !== null)
    const fewest = counted.length > 0 ? Math.min(...counted) : null
    const sorted = [...records].sort((a, b) => (perRequest(a) ?? Infinity) - (perRequest(b) ?? Infinity))
    sections.set(scenario, sorted.map((record) => {
      const value = perRequest(record)
      const windows = record.instructions?.windows.map((window) => window.instructionsPerRequest) ?? []
      const checks = record.instructions?.checks
      return [
        record.sut.label ?? record.sut.name,
        record.sut.frameworkVersion ?? '-',
        value === null ? '-' : formatInteger(value),
        formatInteger(value === null ? null : record.instructions?.programInstructionsPerRequest ?? null),
        formatInteger(value === null ? null : record.instructions?.allocation?.bytesPerRequest ?? null),
        windows.length ? `${formatInteger(Math.min(...windows))}–${formatInteger(Math.max(...windows))} (${windows.length})` : '-',
        value !== null && fewest ? `${(value / fewest).toFixed(2)}×` : '-',
        checks ? formatInteger(checks.responses) : '-',
        record.status === 'ok' ? 'ok' : `${record.status}: ${record.reason}`
      ]
    }))
  }
  return sections
}

const LAYER_COLUMNS = ['framework', ...LAYER_GROUPS.map((group) => group.label)]
/** What the table of layers says under it. */
const LAYER_NOTE = 'Shares of a request\'s instructions: each JavaScript function with the native code it ran charged to it (V8\'s ' +
  'builtins and runtime, a write to a socket), the rest of the native runtime (the event loop) with Node\'s server. `dyno explain` ' +
  'sets two counts\' layers and functions side by side.'

/**
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {Map<string, string[][]>} per scenario, rows of LAYER_COLUMNS for the counts with layers, in the order of countRows
 */
function layerRows (run) {
  /** @type {Map<string, string[][]>} */
  const sections = new Map()
  for (const record of run.records) {
    const shares = record.status === 'ok' ? layerShares(record) : null
    if (!shares) continue
    const row = [record.sut.label ?? record.sut.name, ...shares.map(({ share, perRequest }) =>
      `${(share * 100).toFixed(1)}% (${formatInteger(Math.round(perRequest))})`)]
    sections.set(record.scenario.name, [...(sections.get(record.scenario.name) ?? []), row])
  }
  return sections
}

/** @param {import('../../records/read-run.js').RunData} run @returns {string} how the counts were made, from the first result */
function countSettingsLine (run) {
  const counted = run.records.find((record) => record.instructions)
  const count = counted?.instructions
  if (!counted || !count) return '-'
  return (
    `${count.tool} (${count.method}): ${formatInteger(count.warmupRequests)} uncounted requests, then ` +
      `${count.windows.length || '-'} windows of ` +
    `${formatInteger(count.windowRequests)} at ${count.concurrency} connections; Node SUTs with ` +
    `${
      (run.records.find((record) => record.sut.runtimeKind === 'node' && record.instructions)?.instructions?.settings.nodeFlags ?? []).join(
        ' '
      ) || 'no flags'
    }; cpu baseline ${describeCpuBaseline(cpuBaselineOf(counted) ?? NO_CPU_BASELINE)}`
  )
}

/** @param {string[]} head @param {string[][]} rows @returns {string} every cell escaped */
const htmlTable = (head, rows) => `<table class="counts"><thead><tr>${head.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}` +
  `</tr></thead><tbody>\n${rows.map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`).join('\n')}` +
  '\n</tbody></table>'

/** @param {string[][] | undefined} rows @returns {string} the table of layers of a scenario, if its counts have them */
const layerSection = (rows) => rows
  ? `<h3>Where a request's instructions go</h3>\n${htmlTable(LAYER_COLUMNS, rows)}\n<p class="note">${escapeHtml(LAYER_NOTE)}</p>`
  : ''

/** @type {import('../measure.js').ReportSections} */
export const INSTRUCTIONS_REPORT = Object.freeze({
  overview: instructionsOverview,
  markdownBody: (run) => {
    const lines = [`Instructions per request, counted under ${countSettingsLine(run)}.`, '']
    for (const [scenario, rows] of countRows(run)) {
      const rule = COUNT_COLUMNS.map((column) => COUNT_FIGURE_COLUMNS.includes(column) ? '---:' : '---').join('|')
      lines.push(`## ${scenario}`, '', `| ${COUNT_COLUMNS.join(' | ')} |`, `|${rule}|`,
        ...rows.map((row) => `| ${row.map(markdownCell).join(' | ')} |`), '')
      const layered = layerRows(run).get(scenario)
      if (!layered) continue
      lines.push(`Where a request's instructions go, ${scenario}:`, '', `| ${LAYER_COLUMNS.map(markdownCell).join(' | ')} |`,
        `|${LAYER_COLUMNS.map((_, index) => index === 0 ? '---' : '---:').join('|')}|`,
        ...layered.map((row) => `| ${row.map(markdownCell).join(' | ')} |`), '', LAYER_NOTE, '')
    }
    return lines
  },
  loadLine: () => 'none; instruction counts (above)',
  html: (runs) => {
    const [run] = runs
    const intro = `<p class="note">Instructions per request, counted under ${escapeHtml(countSettingsLine(run))}.</p>`
    const layers = layerRows(run)
    const sections = intro + [...countRows(run)].map(([scenario, rows]) => `<section id="scenario-${scenario.replace(/[^a-z0-9-]/gi, '-')}">
<h2>${escapeHtml(scenario)}</h2>
${htmlTable(COUNT_COLUMNS, rows)}
${layerSection(layers.get(scenario))}
</section>`).join('\n')
    return { scenarios: [], windowLabel: '-', sections, scripts: [] }
  },
  sideBySide: () => ['Instruction counts are set side by side by `dyno compare BASELINE CANDIDATE`, window by window.', '']
})
