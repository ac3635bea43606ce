// @ts-check
/**
 * @typedef {'improved' | 'regressed' | 'unchanged'} Verdict
 */

/**
 * The verdict on one metric: a change counts only when the test finds it significant and its
 * estimate is at least the threshold; anything else, however large the point change of noisy runs,
 * is `unchanged`.
 * @param {{ significant: boolean | null, changePercent: number }} change
 * @param {{ thresholdPercent: number, biggerIsBetter: boolean }} options
 * @returns {Verdict}
 */
export function verdictOf ({ significant, changePercent }, { thresholdPercent, biggerIsBetter }) {
  if (!significant || Math.abs(changePercent) < thresholdPercent) return 'unchanged'
  return (changePercent > 0) === biggerIsBetter ? 'improved' : 'regressed'
}
