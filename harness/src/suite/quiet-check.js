// @ts-check
// Before the first cell, a look at the machine: what other processes use of the cpus the run will measure on. A busy machine is
// said before the run, in one line naming the busiest; the cells then say, one by one, whether they were disturbed.
import { readCpuTimes } from '../platform/resources/cpu-times.js'
import { startInterferenceSampler } from '../platform/resources/interference-sampler.js'
import { describeDisturbance } from '../judging/disturbance.js'

/** How long the look lasts. */
export const QUIET_CHECK_MS = 1000
/**
 * The share of a measured role's cpus other processes may use before the look names them. Lower than a cell's threshold
 * (judging/disturbance.js): a warning costs nothing, and a machine this busy before the run may be busier during it.
 */
export const QUIET_SHARE_PCT = 5

/**
 * @typedef {object} QuietCheck what run.json records of the look
 * @property {boolean} performed
 * @property {string | null} skipped why not (`--quiet-check off`, no /proc/stat)
 * @property {boolean} quiet
 * @property {number} thresholdPct
 * @property {import('../platform/resources/interference-sampler.js').InterferenceReport | null} report
 * @property {string | null} line what was said to the user (null: nothing to say)
 */

/** The line a machine without /proc/stat gets, once per run. */
export const INTERFERENCE_UNMEASURED = 'interference is not measured: /proc/stat cannot be read here, so a cell disturbed by other ' +
  'programs cannot be told from a slow one'

/**
 * @param {{ quietCheck: 'on' | 'off', censusArgs: 'on' | 'off', pinning: import('../platform/pinning/resolve-pinning.js').PinPlan }} suite
 * @param {import('../platform/hosts/host.js').Host} sutHost
 * @returns {Promise<QuietCheck>}
 */
export async function lookBeforeMeasuring ({ quietCheck, censusArgs, pinning }, sutHost) {
  const base = { performed: false, quiet: true, thresholdPct: QUIET_SHARE_PCT, report: null }
  if (!readCpuTimes()) return { ...base, skipped: 'no /proc/stat', line: INTERFERENCE_UNMEASURED }
  if (quietCheck === 'off') return { ...base, skipped: '`--quiet-check off`', line: null }
  const sampler = startInterferenceSampler({
    sutCpus: pinning.sutCpus, generatorCpus: pinning.generatorCpus, sutHere: sutHost.sharesProcesses, sutPgid: null, generatorPids: () => []
  }, { censusArgs: censusArgs === 'on' })
  if (!sampler) return { ...base, skipped: 'no /proc/stat', line: INTERFERENCE_UNMEASURED }
  // The look is a measurement window of its own, not a wait for something to become ready.
  await new Promise((resolve) => setTimeout(resolve, QUIET_CHECK_MS))
  const report = sampler.stop()
  const busy = Object.entries(report.roles).map(([role, share]) => ({ role, share, pct: share.othersPct + share.stealPct }))
    .filter((entry) => entry.pct > QUIET_SHARE_PCT)
  return {
    performed: true,
    skipped: null,
    quiet: busy.length === 0,
    thresholdPct: QUIET_SHARE_PCT,
    report,
    line: busy.length === 0
      ? null
      : `the machine is not quiet: ${describeDisturbance(report, busy)}; every cell is checked for disturbance as it is measured`
  }
}
