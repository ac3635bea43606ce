// @ts-check
// Whether the SUT's memory held steady while it was measured. A service that keeps something of every request (a cache without a
// bound, a listener never removed) grows for as long as the load lasts: its figures describe a process on its way to running out of
// memory, not a steady state, and the cell names it. The resident memory sampled through the measured phase (resource-sampler.js) is
// taken in thirds: the SUT leaks when the last third's mean lies LEAK_MIN_BYTES and LEAK_MIN_SHARE above the first third's, and it was
// still growing at the end (the last step at least STILL_GROWING_SHARE of the one before). A heap that grows to a level after the
// warm-up and stays there passes, as does one that grows in a step and levels off.

/** The growth, in bytes, below which no cell is called leaking: more than a collector's heap sizing moves between two thirds. */
export const LEAK_MIN_BYTES = 64 * 1024 * 1024
/** The growth, as a share of the first third's memory, below which no cell is called leaking. */
export const LEAK_MIN_SHARE = 0.25
/** The growth from the middle third to the last, as a share of the growth before it, at which the memory was still growing. */
export const STILL_GROWING_SHARE = 0.5
/** The fewest samples with which a trend is judged: two in each third. */
export const STEADY_MEMORY_MIN_SAMPLES = 6

const MIB = 1024 * 1024

/**
 * @param {import('../../load/load-plan.js').PhaseSummary} summary the measured phase
 * @returns {import('../../records/result-record.js').ConsistencyCheck | null} null: the SUT's memory was not sampled (a result of an
 *   earlier version)
 */
export function steadyMemoryCheck (summary) {
  const samples = summary.resources?.targets.sut?.samples ?? []
  if (samples.length === 0) return null
  if (samples.length < STEADY_MEMORY_MIN_SAMPLES) {
    return {
      name: 'steady-memory',
      passed: true,
      detail: `not judged: ${samples.length} samples of the SUT's resident memory, where a trend needs ${STEADY_MEMORY_MIN_SAMPLES}`
    }
  }
  const third = Math.floor(samples.length / 3)
  const [first, middle, last] = [samples.slice(0, third), samples.slice(third, -third), samples.slice(-third)].map(meanOf)
  const grownBytes = last.rssBytes - first.rssBytes
  const stillGrowing = last.rssBytes - middle.rssBytes >= STILL_GROWING_SHARE * (middle.rssBytes - first.rssBytes) &&
    last.rssBytes > middle.rssBytes
  const leaking = grownBytes >= LEAK_MIN_BYTES && grownBytes >= LEAK_MIN_SHARE * first.rssBytes && stillGrowing
  const spanSec = (last.tMs - first.tMs) / 1000
  const perRequestKib = spanSec > 0 && summary.requestsPerSec.mean > 0
    ? ` (${round(grownBytes / spanSec / summary.requestsPerSec.mean / 1024)} KiB a request)`
    : ''
  return {
    name: 'steady-memory',
    passed: !leaking,
    detail: `the SUT's resident memory went from ${round(first.rssBytes / MIB)} to ${round(last.rssBytes / MIB)} MiB, the means of ` +
      `the first and last thirds of ${samples.length} samples, ${round(spanSec)} s apart${grownBytes > 0 ? perRequestKib : ''}, ` +
      `${stillGrowing ? 'still growing at the end' : 'not growing at the end'}` +
      (leaking ? ': it leaks under load' : '') +
      ` (a leak: ${LEAK_MIN_BYTES / MIB} MiB and ${LEAK_MIN_SHARE * 100} % more, still growing)`
  }
}

/**
 * @param {import('../../platform/resources/resource-sampler.js').ResourceSample[]} samples
 * @returns {{ rssBytes: number, tMs: number }} their mean memory and mean time
 */
function meanOf (samples) {
  const sum = samples.reduce((total, sample) => ({ rssBytes: total.rssBytes + sample.rssBytes, tMs: total.tMs + sample.tMs }),
    { rssBytes: 0, tMs: 0 })
  return { rssBytes: sum.rssBytes / samples.length, tMs: sum.tMs / samples.length }
}

/** @param {number} value */
const round = (value) => Math.round(value * 10) / 10
