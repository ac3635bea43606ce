// @ts-check
import { COMMAND_OPTIONS, cacKey, flagName } from './option-table.js'

/**
 * Validates what cac parsed for one command against the option table, once, at the boundary.
 * @param {keyof typeof COMMAND_OPTIONS} command
 * @param {Record<string, unknown>} raw cac's options object
 * @returns {Record<string, any>} the validated options, keyed by each option's `field`
 */
export function parseOptions (command, raw) {
  /** @type {Record<string, any>} */
  const parsed = {}
  for (const spec of COMMAND_OPTIONS[command]) {
    const value = raw[cacKey(spec)]
    if (value === undefined) {
      if (spec.default !== undefined) parsed[spec.field] = spec.default
      continue
    }
    parsed[spec.field] = spec.parse(Array.isArray(value) ? value.at(-1) : value, flagName(spec))
  }
  return parsed
}
