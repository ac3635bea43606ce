// @ts-check
import { DynoError } from '../../platform/errors.js'

/**
 * Picks the named items from a catalogue, in the catalogue's order; every unknown name is an error
 * that lists the valid ones. No names: everything.
 * @template {{ name: string }} T
 * @param {T[]} catalogue
 * @param {string[] | undefined} names
 * @param {{ code: 'DYNO_ERR_UNKNOWN_FRAMEWORK' | 'DYNO_ERR_UNKNOWN_SCENARIO', what: string, flag: string }} kind
 * @returns {T[]}
 */
export function selectByName (catalogue, names, { code, what, flag }) {
  if (!names) return catalogue
  const valid = catalogue.map((item) => item.name)
  const unknown = names.filter((name) => !valid.includes(name))
  if (unknown.length > 0) {
    const listed = unknown.map((name) => `\`${name}\``).join(', ')
    throw new DynoError(code, `\`${flag}\`: unknown ${what}${unknown.length > 1 ? 's' : ''} ${listed}; valid: ${valid.join(', ')}`)
  }
  return catalogue.filter((item) => names.includes(item.name))
}

/**
 * @template {{ name: string }} T
 * @param {T[]} catalogue @param {string[] | undefined} names
 */
export const selectSuts = (catalogue, names) =>
  selectByName(catalogue, names, { code: 'DYNO_ERR_UNKNOWN_FRAMEWORK', what: 'framework', flag: '--frameworks' })

/**
 * @template {{ name: string }} T
 * @param {T[]} catalogue @param {string[] | undefined} names
 */
export const selectScenarios = (catalogue, names) =>
  selectByName(catalogue, names, { code: 'DYNO_ERR_UNKNOWN_SCENARIO', what: 'scenario', flag: '--scenarios' })
