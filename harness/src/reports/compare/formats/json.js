// @ts-check
/**
 * The comparison as JSON, as harness/schema/compare.schema.json describes it.
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @returns {string}
 */
export function formatCompareJson (comparison) {
  return JSON.stringify(comparison, null, 2)
}
