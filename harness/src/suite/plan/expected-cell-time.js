// @ts-check
// How long one cell of a plan is expected to take, from the plan alone (never from this machine's history, so that every job of a CI
// matrix computes the same figure and draws the same parts), as its measure says. Used to balance the parts of `--shard` and to say how
// many parts a plan needs; a cell that takes longer than expected makes its part late, never its figures wrong.
import { measureNamed } from '../../measures/index.js'

/**
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @param {import('../../platform/options/option-values.js').PlanValues} settings the run's load settings, or the options they are made from,
 *   which name its measure
 * @returns {number} seconds
 */
export function expectedCellSec (scenario, settings) {
  return measureNamed(settings.measure).expectedCellSec(scenario, settings)
}
