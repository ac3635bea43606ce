// @ts-check
import { median, quantileSorted } from 'simple-statistics'
import { seededRandom } from './seeded-random.js'

/** Resamples of a bootstrap confidence interval: enough for stable 2.5/97.5 percentiles. */
export const BOOTSTRAP_RESAMPLES = 10_000

/**
 * A 95% percentile-bootstrap confidence interval of the median: resample the values with
 * replacement, take each resample's median, and read the 2.5th and 97.5th percentiles.
 * @param {number[]} values at least 2
 * @param {{ seed: number, resamples?: number, confidence?: number }} options
 * @returns {[number, number]}
 */
export function bootstrapMedianInterval (values, { seed, resamples = BOOTSTRAP_RESAMPLES, confidence = 0.95 }) {
  if (values.length < 2) throw new RangeError(`a bootstrap interval needs at least 2 values, got ${values.length}`)
  const random = seededRandom(seed)
  const medians = new Float64Array(resamples)
  const sample = new Array(values.length)
  for (let resample = 0; resample < resamples; resample++) {
    for (let index = 0; index < values.length; index++) sample[index] = values[Math.floor(random() * values.length)]
    medians[resample] = median(sample)
  }
  const sorted = Array.from(medians).sort((a, b) => a - b)
  const tail = (1 - confidence) / 2
  return [quantileSorted(sorted, tail), quantileSorted(sorted, 1 - tail)]
}
