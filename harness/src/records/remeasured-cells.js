// @ts-check
// What a run's records say of the cells measured again (suite/remeasure.js), for the run's end and its reports.
/**
 * The cells of a run measured again: disturbed themselves, or measured again with their block; and how many came out clean.
 * @param {import('./result-record.js').ResultRecord[]} records
 * @returns {{ remeasured: import('./result-record.js').ResultRecord[], withBlock: number, clean: number }}
 */
export function remeasuredCells (records) {
  const remeasured = records.filter((record) => (record.interference?.earlierAttempts.length ?? 0) > 0)
  return {
    remeasured,
    withBlock: remeasured.filter((record) => record.interference?.earlierAttempts.every((attempt) => attempt.withBlockOf)).length,
    clean: remeasured.filter((record) => !record.interference?.disturbed).length
  }
}
