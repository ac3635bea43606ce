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

/** @type {import('../measure.js').ReportSections} */
export const INSTRUCTIONS_REPORT = Object.freeze({
  overview: instructionsOverview,
  markdownBody: (run) => {
    const lines = [`Instructions per request, counted under ${countSettingsLine(run)}.`, '']
    for (const [scenario, rows] of countRows(run)) {
      const rule = COUNT_COLUMNS.map((column) => COUNT_FIGURE_COLUMNS.includes(column) ? '---:' : '---').join('|')
      lines.push(`## ${scenario}`, '', `| ${COUNT_COLUMNS.join(' | ')} |`, `|${rule}|`,
        ...rows.map((row) => `| ${row.map(markdownCell).join(' | ')} |`), '')
    }
    return lines
  },
  loadLine: () => 'none; instruction counts (above)',
  html: (runs) => {
    const [run] = runs
    const intro = `<p class="note">Instructions per request, counted under ${escapeHtml(countSettingsLine(run))}.</p>`
    const sections = intro + [...countRows(run)].map(([scenario, rows]) => `<section id="scenario-${scenario.replace(/[^a-z0-9-]/gi, '-')}">
<h2>${escapeHtml(scenario)}</h2>
<table class="counts"><thead><tr>${COUNT_COLUMNS.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>
${rows.map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>
</section>`).join('\n')
    return { scenarios: [], windowLabel: '-', sections, scripts: [] }
  },
  sideBySide: () => ['Instruction counts are set side by side by `dyno compare BASELINE CANDIDATE`, window by window.', '']
})
