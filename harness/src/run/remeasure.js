// @ts-check
// A cell where autocannon was the bottleneck is measured again with the native engine, so that no figure of a
// default run measures the generator. From then on, the cell's other repeats in the run use the native engine
// at once: one cell, one engine.
import { engineNamed } from '../load/engines/index.js'

/**
 * Whether this record's cell is to be measured again with the native engine: an ok closed-loop autocannon run
 * that was generator-bound, with the native engine built.
 * @param {import('../results/result-record.js').ResultRecord} record
 */
export function wantsNativeRemeasure (record) {
  return record.status === 'ok' && record.load.engine === 'autocannon' && record.summary?.generatorBound === true && engineNamed('native').availability().ok
}

/**
 * The native engine's record of the cell, with autocannon's generator-bound figures kept beside it.
 * @param {import('../results/result-record.js').ResultRecord} native
 * @param {import('../results/result-record.js').ResultRecord} autocannon
 * @returns {import('../results/result-record.js').ResultRecord}
 */
export function withAutocannonBeside (native, autocannon) {
  const summary = /** @type {import('../load/load-plan.js').PhaseSummary} */ (autocannon.summary)
  return {
    ...native,
    generatorBoundMeasurement: {
      engine: 'autocannon',
      engineVersion: autocannon.load.engineVersion,
      requestsPerSec: summary.requestsPerSec.mean,
      latencyMs: summary.latencyMs,
      generatorCpuPct: summary.generatorCpuPct ?? null,
      reason: `autocannon was generator-bound (${summary.generatorCpuPct ?? '?'}% of one core on ` +
        `${autocannon.load.pinning.generatorCpus?.length ?? 1} generator cpu(s)): measured again with the native engine`
    }
  }
}
