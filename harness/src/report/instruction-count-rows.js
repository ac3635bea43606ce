// @ts-check
// The rows of a report of instruction counts (`--measure instructions`): per scenario, each SUT's instructions per
// request over all counted windows, the spread of its windows, and the factor against the fewest. Both the markdown
// and the HTML report write these rows; every figure comes from the result files.
import { formatInteger } from '../ui/format.js'

/** @param {import('./read-run.js').RunData} run @returns {boolean} every result of the run is an instruction count */
export const isCountRun = (run) => run.records.length > 0 && run.records.every((record) => record.load.measure === 'instructions')

export const COUNT_COLUMNS = ['framework', 'version', 'instructions/req', 'windows (min–max)', '× fewest', 'responses checked', 'status']

/**
 * @param {import('./read-run.js').RunData} run
 * @returns {Map<string, string[][]>} per scenario, rows of COUNT_COLUMNS, fewest instructions first
 */
export function countRows (run) {
  /** @type {Map<string, import('../results/result-record.js').ResultRecord[]>} */
  const byScenario = new Map()
  for (const record of run.records) byScenario.set(record.scenario.name, [...(byScenario.get(record.scenario.name) ?? []), record])
  /** @type {Map<string, string[][]>} */
  const sections = new Map()
  for (const [scenario, records] of byScenario) {
    const perRequest = (/** @type {import('../results/result-record.js').ResultRecord} */ record) =>
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
        windows.length ? `${formatInteger(Math.min(...windows))}–${formatInteger(Math.max(...windows))} (${windows.length})` : '-',
        value !== null && fewest ? `${(value / fewest).toFixed(2)}×` : '-',
        checks ? formatInteger(checks.responses) : '-',
        record.status === 'ok' ? 'ok' : `${record.status}: ${record.reason}`
      ]
    }))
  }
  return sections
}

/** @param {import('./read-run.js').RunData} run @returns {string} how the counts were made, from the first result */
export function countSettingsLine (run) {
  const count = run.records.find((record) => record.instructions)?.instructions
  if (!count) return '-'
  return `${count.tool} (${count.method}): ${formatInteger(count.warmupRequests)} uncounted requests, then ${count.windows.length || '-'} windows of ` +
    `${formatInteger(count.windowRequests)} at ${count.concurrency} connections; Node SUTs with ` +
    `${(run.records.find((record) => record.sut.runtimeKind === 'node' && record.instructions)?.instructions?.settings.nodeFlags ?? [])
      .join(' ') || 'no flags'}`
}
