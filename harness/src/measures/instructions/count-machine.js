// @ts-check
// What an instruction count depends on besides the plan (whose identity holds the count's settings): not the machine's speed, only the code
// that ran: the architecture, each runtime's version, and the cpu baseline its counts were pinned to.
import { cpuBaselineOf, describeCpuBaseline } from '../../records/count-baseline.js'

/**
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {Record<string, string>} what a count depends on besides the plan: the architecture, each runtime's version, and the
 *   cpu baseline its counts were pinned to (cpu-baseline.js; a result that holds no count has none to tell)
 */
export function countMachine (run) {
  const env = run.index.env ?? {}
  /** @type {Record<string, string>} */
  const machine = { arch: String(env.os?.arch ?? 'unknown') }
  for (const record of run.records) {
    if (record.sut?.runtime) machine[`runtime ${record.sut.runtime}`] = String(record.sut.runtimeVersion ?? 'unknown')
  }
  const baselines = [...new Set(run.records.map(cpuBaselineOf).filter((name) => name !== null))].map(describeCpuBaseline)
  if (baselines.length > 0) machine['cpu baseline'] = baselines.sort().join(' and ')
  return machine
}
