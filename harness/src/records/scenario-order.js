// @ts-check
import { SCENARIOS } from '@dyno/scenarios'

/**
 * A scenario's place in the contract, so that tables and reports list scenarios in one order whatever order shuffled rounds
 * measured them in (a scenario not in the contract, from an older run, after the others).
 * @param {string} name
 * @returns {number}
 */
export function contractPlace (name) {
  const place = SCENARIOS.findIndex((scenario) => scenario.name === name)
  return place === -1 ? SCENARIOS.length : place
}
