// @ts-check
// `dyno run --plan`: the plan as JSON on stdout, nothing built, started or measured.
import { preparePlan } from '../../suite/prepare-run.js'
import { plannedEntry, planRecord } from '../../suite/plan/plan-parts.js'

/**
 * @param {import('../../suite/prepare-run.js').RunValues} options @param {import('../cli/io.js').Io} io @param {Set<string>} planFields
 * @returns {Promise<number>}
 */
export async function printPlan (options, io, planFields) {
  const plan = await preparePlan(options, planFields)
  const parts = plan.parts.map((part, index) => ({
    shard: `${index + 1}/${plan.parts.length}`,
    cells: part.units.length,
    expectedSec: part.expectedSec,
    planned: part.units.map(plannedEntry)
  }))
  io.stdout.write(JSON.stringify({ ...planRecord(plan, options.shard), parts }, null, 2) + '\n')
  return 0
}
