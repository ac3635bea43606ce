// @ts-check
// The spread of a figure between fresh launches, pooled over the SUTs of the noise calibration: each SUT's squared deviations of ln figure
// from its own mean, summed and divided by their degrees of freedom. The SUTs differ in speed and cost, not (by assumption) in spread.
import { mean } from 'simple-statistics'

/**
 * @param {number[][]} launches each SUT's launches' ln figure
 * @returns {{ variance: number, df: number } | null} null: no SUT has two launches to spread between
 */
export function pooledLogSpread (launches) {
  const df = launches.reduce((sum, values) => sum + Math.max(0, values.length - 1), 0)
  if (df < 1) return null
  const squares = launches.reduce((sum, values) =>
    values.length < 2 ? sum : sum + values.reduce((inner, value) => inner + (value - mean(values)) ** 2, 0), 0)
  return { variance: squares / df, df }
}
