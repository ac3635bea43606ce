// @ts-check
// The rows of a report of instruction counts (`--measure instructions`): per scenario, each SUT's instructions per
// request over all counted windows, the program's (V8's collector's counted apart), the bytes allocated per request, the
// spread of its windows, and the factor against the fewest. Both the markdown
// and the HTML report write these rows; every figure comes from the result files.
import { cpuBaselineOf, describeCpuBaseline, NO_CPU_BASELINE } from '../../records/count-baseline.js'
import { formatInteger } from '../../platform/text/format.js'

/** @param {import('../../records/read-run.js').RunData} run @returns {boolean} every result of the run is an instruction count */
export const isCountRun = (run) => run.records.length > 0 && run.records.every((record) => record.load.measure === 'instructions')

export const COUNT_COLUMNS = ['framework', 'version', 'instructions/req', 'program/req', 'allocated B/req', 'windows (min–max)', '× fewest',
  'responses checked', 'status']
/** The columns of COUNT_COLUMNS that hold figures (aligned right). */
export const COUNT_FIGURE_COLUMNS = ['instructions/req', 'program/req', 'allocated B/req', 'windows (min–max)', '× fewest', 'responses checked']

/**
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {Map<string, string[][]>} per scenario, rows of COUNT_COLUMNS, fewest instructions first
 */
export function countRows (run) {
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
export function countSettingsLine (run) {
  const counted = run.records.find((record) => record.instructions)
  const count = counted?.instructions
  if (!counted || !count) return '-'
  return `${count.tool} (${count.method}): ${formatInteger(count.warmupRequests)} uncounted requests, then ${count.windows.length || '-'} windows of ` +
    `${formatInteger(count.windowRequests)} at ${count.concurrency} connections; Node SUTs with ` +
    `${(run.records.find((record) => record.sut.runtimeKind === 'node' && record.instructions)?.instructions?.settings.nodeFlags ?? [])
      .join(' ') || 'no flags'}; cpu baseline ${describeCpuBaseline(cpuBaselineOf(counted) ?? NO_CPU_BASELINE)}`
}
