// @ts-check
// A weighted mix of requests (`mix`) as the one list load and counts send in turn: each request in proportion to its weight, spread
// evenly through every cycle of the weights (smooth weighted round-robin), so any stretch of the list a connection sends holds the
// mix. Like generated parameters it is made once from the scenario's name: every run and every commit sends the same list.
import { DRAWN_REQUESTS, drawnRequests } from './request-params.js'

/**
 * @typedef {import('@dyno/scenarios').DrawnRequest} DrawnRequest
 * @typedef {{ weight: number, template: DrawnRequest, params?: Record<string, import('./request-params.js').ParamSpec> }} MixEntry
 */

/**
 * @param {MixEntry[]} entries in the config's order
 * @param {{ seed: string, file: string, where: string }} origin seed: the scenario's name; where: the mix's path in the config
 * @returns {DrawnRequest[]} whole cycles of the weights, at least DRAWN_REQUESTS requests, each with its entry's index
 * @throws {import('../../platform/errors.js').DynoError} DYNO_ERR_APP_CONFIG from an entry's generated parameters
 */
export function mixedRequests (entries, { seed, file, where }) {
  const order = weightedOrder(entries.map((entry) => entry.weight))
  const cycles = Math.ceil(DRAWN_REQUESTS / order.length)
  const uses = entries.map((_, index) => cycles * order.filter((entry) => entry === index).length)
  const made = entries.map(({ template, params }, index) => params
    ? drawnRequests(template, params, { seed: `${seed}\0${index}`, file, where: `${where}/${index}/request`, count: uses[index] })
    : [template])
  const taken = entries.map(() => 0)
  return Array.from({ length: cycles * order.length }, (_, position) => {
    const entry = order[position % order.length]
    const requests = made[entry]
    return { ...requests[taken[entry]++ % requests.length], entry }
  })
}

/**
 * One cycle of smooth weighted round-robin: each step every entry gains its weight, the richest is chosen and pays the total.
 * @param {number[]} weights
 * @returns {number[]} entry indexes, each as often as its weight, evenly spread; ties go to the first
 */
function weightedOrder (weights) {
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  const credit = weights.map(() => 0)
  return Array.from({ length: total }, () => {
    let chosen = 0
    for (let index = 0; index < weights.length; index++) {
      credit[index] += weights[index]
      if (credit[index] > credit[chosen]) chosen = index
    }
    credit[chosen] -= total
    return chosen
  })
}
