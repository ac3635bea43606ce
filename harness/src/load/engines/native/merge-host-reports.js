// @ts-check
// What the native engines on several load hosts report, added up as it comes: each second's progress summed once every host has
// reported that second, and each phase merged exactly (counts and histograms added, as the engine merges its own threads) once
// every host has reported that phase, with what each host did in it.
import { generatorBound } from '../../../platform/resources/resource-figures.js'
import { nativePortableCounts, withConnects, withFailures, withProtocol } from './native-report.js'
import { mergeCounts } from '../../phase-counts.js'
import { phaseSummary } from '../../phase-summary.js'

/**
 * @typedef {object} HostPlanShare what one host was given of the plan
 * @property {string} name the host's
 * @property {number} connections
 * @property {number | null} ratePerSec open model: its share of the offered rate; null: closed model
 * @property {number} threads its engine's
 * @property {number} allottedCores the cpus its engine may run on
 */

/**
 * Each second's progress, summed over the hosts.
 * @param {number} hostCount
 */
export function progressAcrossHosts (hostCount) {
  /** @type {Map<string, { hosts: number, requestsPerSec: number }>} */
  const seconds = new Map()
  return {
    /**
     * @param {{ phase: string, elapsedSec: number, requestsPerSec?: number | null }} message one host's `progress` line
     * @returns {{ phase: string, elapsedSec: number, requestsPerSec: number } | null} that second summed over every host, when this
     *   line was the last host's for it; null before
     */
    add (message) {
      const key = `${message.phase}:${message.elapsedSec}`
      const second = seconds.get(key) ?? { hosts: 0, requestsPerSec: 0 }
      second.hosts += 1
      second.requestsPerSec += message.requestsPerSec ?? 0
      seconds.set(key, second)
      if (second.hosts !== hostCount) return null
      return { phase: message.phase, elapsedSec: message.elapsedSec, requestsPerSec: second.requestsPerSec }
    }
  }
}

/**
 * Each phase's reports and host figures, merged into `outcome` once every host has reported that phase.
 * @param {import('../../load-plan.js').LoadPlan} plan @param {number} hostCount
 * @param {import('../engine.js').LoadOutcome} outcome where a merged phase goes
 */
export function phasesAcrossHosts (plan, hostCount, outcome) {
  /** @type {Map<string, import('./native-report.js').NativePhaseReport[]>} */
  const reports = new Map()
  /** @type {Map<string, import('../engine.js').HostShare[]>} */
  const shareFigures = new Map()
  return {
    /**
     * @param {number} index the host's @param {import('./native-report.js').NativePhaseReport} report its engine's for the phase
     * @param {import('../engine.js').HostShare} figures what the host did in the phase
     * @returns {boolean} whether this report was the last host's, and the phase is now merged into the outcome
     */
    add (index, report, figures) {
      const hostFigures = shareFigures.get(report.name) ?? []
      hostFigures[index] = figures
      shareFigures.set(report.name, hostFigures)
      const phase = reports.get(report.name) ?? []
      phase[index] = report
      reports.set(report.name, phase)
      if (phase.filter(Boolean).length !== hostCount) return false
      const { counts, rate } = mergeCounts(phase.map(nativePortableCounts))
      const summary = withFailures(withConnects(withProtocol(phaseSummary(counts, plan.expectedStatus), phase, plan), phase), phase)
      outcome.phases[report.name] = { ...summary, ...(rate ? { rate } : {}), loadHosts: hostFigures }
      return true
    }
  }
}

/**
 * What one host did in a phase: its share of the plan, the requests and errors (timeouts among them) its engine reported, and
 * whether that engine set the pace, judged from its CPU where it ran.
 * @param {HostPlanShare} share @param {import('./native-report.js').NativePhaseReport} report
 * @param {import('../../../platform/resources/resource-sampler.js').TargetResources | null} usage its engine's over the phase; null:
 *   not read
 * @returns {import('../engine.js').HostShare}
 */
export function hostPhaseFigures ({ name, connections, ratePerSec, threads, allottedCores }, report, usage) {
  const bound = usage
    ? generatorBound({ cpuSec: usage.cpuSec, wallSec: usage.durationSec, allottedCores, generatorThreads: threads })
    : { generatorBound: false, generatorCpuPct: null }
  return {
    name,
    connections,
    ...(ratePerSec === null ? {} : { ratePerSec }),
    threads,
    requests: report.requests,
    errors: report.errors + report.timeouts,
    ...bound
  }
}
