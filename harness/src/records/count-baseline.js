// @ts-check
// Which cpu baseline a result's count was made for (harness/src/measures/instructions/counts/cpu-baseline.js makes them), read where
// results are merged, compared and reported: counts of different baselines counted different code.

/** What a count made before counts were pinned to a baseline records: nothing, read as this. */
export const NO_CPU_BASELINE = 'none'

/**
 * The baseline a result's count was made with.
 * @param {{ instructions?: { settings?: { cpuBaseline?: string } } | null }} record
 * @returns {string | null} null: the result holds no count (it failed before one, or was skipped)
 */
export function cpuBaselineOf (record) {
  if (!record.instructions) return null
  return record.instructions.settings?.cpuBaseline ?? NO_CPU_BASELINE
}

/**
 * How a baseline is named to a reader.
 * @param {string} name
 */
export const describeCpuBaseline = (name) => name === NO_CPU_BASELINE ? 'none (counted by a dyno from before cpu baselines)' : name
