// @ts-check
import { GENERATOR_BOUND_SHARE } from './resource-defaults.js'

/**
 * Efficiency: responses per second of CPU the SUT used (user + system, all its processes).
 * @param {number} requests
 * @param {number} cpuSec
 * @returns {number | null} rounded to 0.1; null when no CPU time was measured
 */
export function requestsPerCpuSec (requests, cpuSec) {
  if (!Number.isFinite(requests) || !Number.isFinite(cpuSec) || cpuSec <= 0) return null
  return Math.round(requests / cpuSec * 10) / 10
}

/**
 * Whether the load generator, not the SUT, set the pace: autocannon drives every connection from
 * one JavaScript thread, so its allotment is one core at most, fewer when it is pinned to less.
 * @param {{ cpuSec: number, wallSec: number, allottedCores: number, generatorThreads?: number }} usage
 *   allottedCores: the cores the generator may run on (the pinned set, or every core when not pinned);
 *   generatorThreads: threads that drive load (1 for autocannon; wrk's `-t`)
 * @returns {{ generatorBound: boolean, generatorCpuPct: number }} generatorCpuPct in % of one core;
 *   bound when it used at least 90 % of its allotment, min(generatorThreads, allottedCores) cores
 */
export function generatorBound ({ cpuSec, wallSec, allottedCores, generatorThreads = 1 }) {
  if (!(wallSec > 0) || !(cpuSec >= 0) || !(allottedCores > 0)) return { generatorBound: false, generatorCpuPct: 0 }
  const coresUsed = cpuSec / wallSec
  return {
    generatorBound: coresUsed >= GENERATOR_BOUND_SHARE * Math.min(generatorThreads, allottedCores),
    generatorCpuPct: Math.round(coresUsed * 1000) / 10
  }
}

/**
 * @typedef {object} PhaseResourceFigures what one phase summary gains from its resource report
 * @property {import('./resource-sampler.js').ResourceReport} resources
 * @property {number | null} requestsPerCpuSec the phase's responses per CPU second of the SUT
 * @property {boolean} generatorBound
 * @property {number | null} generatorCpuPct null when the generator was not sampled
 * @property {number | null} generatorHeadroomPct how far the generator was from its limit: 100 − the share of its allotment it used
 *   (min(threads, cpus) cores), in %; null when it was not sampled
 */

/**
 * @param {import('./resource-sampler.js').ResourceReport} report of the phase's window, with targets `sut` and `generator`
 * @param {{ requests: number, generatorCores: number, generatorThreads?: number }} phase generatorCores: the cpus the generator may use
 * @returns {PhaseResourceFigures}
 */
export function phaseResourceFigures (report, { requests, generatorCores, generatorThreads = 1 }) {
  const { sut, generator } = report.targets
  const bound = generator
    ? generatorBound({ cpuSec: generator.cpuSec, wallSec: generator.durationSec, allottedCores: generatorCores, generatorThreads })
    : { generatorBound: false, generatorCpuPct: null }
  const allotment = Math.min(generatorThreads, generatorCores)
  const generatorHeadroomPct = bound.generatorCpuPct === null ? null : Math.max(0, Math.round((100 - bound.generatorCpuPct / allotment) * 10) / 10)
  return { resources: report, requestsPerCpuSec: sut ? requestsPerCpuSec(requests, sut.cpuSec) : null, ...bound, generatorHeadroomPct }
}
