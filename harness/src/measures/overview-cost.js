// @ts-check
// The cpu cost per request as the overview and the reports write it beside req/s: `38.2 µs 97%`, marked `~` where the SUT was not
// cpu-bound, and the sentence that says what it is.
import { NOT_CPU_BOUND_RULE } from '../platform/resources/cpu-cost.js'

/** After a cost where the SUT was not cpu-bound. */
export const COST_MARK = '~'

/**
 * µs to three significant figures at most: `1.23`, `38.2`, `412`.
 * @param {number} us
 */
export const costFigure = (us) => us >= 100 ? String(Math.round(us)) : us >= 10 ? us.toFixed(1) : us.toFixed(2)

/**
 * @param {import('./overview.js').OverviewCost} cost
 * @returns {string} `38.2 µs 97%`, `412 µs 31%~`
 */
export const costText = (cost) =>
  `${costFigure(cost.cpuUsPerRequest)} µs${cost.sutCpuSharePct === null ? '' : ` ${Math.round(cost.sutCpuSharePct)}%`}` +
  (cost.marked ? COST_MARK : '')

/**
 * What the cost beside each figure is, from the cells' costs.
 * @param {import('../records/aggregate-runs.js').CellCpuCost[]} costs
 */
export function costNote (costs) {
  const sources = [...new Set(costs.map((cost) => cost.cpuSource))].join(' and ')
  const atOneSpeed = costs.length > 0 && costs.every((cost) => cost.speedAdjusted)
    ? ', each at the run\'s median cpu speed, as the speed probe beside the SUT read its round'
    : ''
  return `Beside req/s: µs of the SUT's cpu per request (the geometric mean of the rounds${atOneSpeed}), read from ${sources === 'cgroup'
    ? 'its own cgroup\'s cpu.stat'
    : sources === 'proc' ? 'its processes in /proc' : `${sources}`}, so steal and other processes' cpu are never in it; then the ` +
    `share of the cpus it was given that it used. ${COST_MARK} not cpu-bound (${NOT_CPU_BOUND_RULE}): there the cost says how ` +
    'little it did while it waited more than what its code costs'
}
