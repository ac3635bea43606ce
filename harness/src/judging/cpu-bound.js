// @ts-check
// Whether a cell's cpu cost per request says what it seems to: where the SUT was not cpu-bound (it used less than the threshold share of
// the cpus it was given, or its scenario waits on I/O), the cost holds what it did while it waited, and is marked.
import { SUT_CPU_BOUND_SHARE } from '../platform/resources/resource-defaults.js'

/**
 * Why a cell's cpu cost is marked, or null when the SUT was cpu-bound in every round it rests on.
 * @param {{ sutCpuSharePcts: (number | null)[], waitsOnIo: boolean }} cell each round's share of its cpus (null: not known)
 * @returns {string | null}
 */
export function notCpuBoundReason ({ sutCpuSharePcts, waitsOnIo }) {
  if (waitsOnIo) return 'its scenario waits on I/O'
  const below = sutCpuSharePcts.filter((share) => share === null || share < SUT_CPU_BOUND_SHARE * 100)
  if (below.length === 0) return null
  const known = /** @type {number[]} */ (below.filter((share) => share !== null))
  return known.length === 0
    ? 'its share of its cpus is not known'
    : `it used ${Math.min(...known)}% of its cpus (< ${Math.round(SUT_CPU_BOUND_SHARE * 100)}%)`
}
