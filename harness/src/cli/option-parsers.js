// @ts-check
import { checkRuntimeNames } from '../runtimes/runtime-targets.js'
import { DynoError } from '../errors.js'

/**
 * Parsers for option values. Each takes the raw value (cac may hand over a string, a number or a
 * boolean) and the flag it came from, and returns the typed value or throws DYNO_ERR_INVALID_OPTION
 * naming the flag, the bad value and what is allowed.
 * @typedef {(raw: unknown, flag: string) => any} OptionParser
 */

/** @param {string} flag @param {unknown} raw @param {string} allowed */
export function invalidOption (flag, raw, allowed) {
  return new DynoError('DYNO_ERR_INVALID_OPTION', `\`${flag}\` must be ${allowed}, got \`${String(raw)}\``)
}

/**
 * @param {{ min: number, max: number }} range
 * @returns {OptionParser}
 */
export function wholeNumber ({ min, max }) {
  return (raw, flag) => {
    const text = String(raw).trim()
    const value = Number(text)
    if (!/^\d+$/.test(text) || value < min || value > max) {
      throw invalidOption(flag, raw, `a whole number from ${min} to ${max}`)
    }
    return value
  }
}

/**
 * @param {{ min: number, max: number, minExclusive?: boolean }} range
 * @returns {OptionParser}
 */
export function seconds ({ min, max, minExclusive = false }) {
  return (raw, flag) => {
    const text = String(raw).trim()
    const value = Number(text)
    const tooSmall = minExclusive ? value <= min : value < min
    if (!/^\d+(\.\d+)?$/.test(text) || tooSmall || value > max) {
      throw invalidOption(flag, raw, `a number of seconds ${minExclusive ? 'above' : 'from'} ${min} ${minExclusive ? 'and up' : ''} to ${max}`.replace('  ', ' '))
    }
    return value
  }
}

/**
 * A comma-separated list of whole numbers, e.g. `10,100,1000` (a sweep), each within the range.
 * @param {{ min: number, max: number }} range
 * @returns {OptionParser}
 */
export function wholeNumberList ({ min, max }) {
  const one = wholeNumber({ min, max })
  return (raw, flag) => {
    const parts = String(raw).split(',').map((part) => part.trim())
    if (parts.length === 0 || parts.some((part) => part === '')) throw invalidOption(flag, raw, `a whole number from ${min} to ${max}, or a comma-separated list of them`)
    const values = parts.map((part) => {
      try {
        return one(part, flag)
      } catch {
        throw invalidOption(flag, raw, `a whole number from ${min} to ${max}, or a comma-separated list of them`)
      }
    })
    return [...new Set(values)]
  }
}

/**
 * One of a fixed set of names.
 * @param {readonly string[]} allowed
 * @returns {OptionParser}
 */
export function oneOf (allowed) {
  return (raw, flag) => {
    if (!allowed.includes(String(raw))) throw invalidOption(flag, raw, `one of ${allowed.join(', ')}`)
    return String(raw)
  }
}

/**
 * A number above 0 (decimals allowed), at most `max`.
 * @param {{ max: number }} range
 * @returns {OptionParser}
 */
export function positiveNumber ({ max }) {
  return (raw, flag) => {
    const text = String(raw).trim()
    const value = Number(text)
    if (!/^\d+(\.\d+)?$/.test(text) || value <= 0 || value > max) throw invalidOption(flag, raw, `a number above 0, at most ${max}`)
    return value
  }
}

/** @type {OptionParser} */
export function nameList (raw, flag) {
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    throw invalidOption(flag, raw, 'a comma-separated list of names')
  }
  const names = String(raw).split(',').map((name) => name.trim()).filter(Boolean)
  if (names.length === 0) throw invalidOption(flag, raw, 'a comma-separated list of at least one name')
  return [...new Set(names)]
}

/** @type {OptionParser} */
export function directory (raw, flag) {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidOption(flag, raw, 'a directory path')
  return raw
}

/** @type {OptionParser} */
export function flag (raw, name) {
  if (typeof raw !== 'boolean') throw invalidOption(name, raw, 'given without a value')
  return raw
}

/**
 * A comma-separated list of runtime names, each one dyno knows; throws DYNO_ERR_UNKNOWN_RUNTIME
 * naming the unknown ones and the valid ones.
 * @type {OptionParser}
 */
export function runtimeList (raw, flag) {
  return [...new Set(checkRuntimeNames(nameList(raw, flag)))]
}

/**
 * A percentage from `min` to `max`, written `5` or `5%`.
 * @param {{ min: number, max: number }} range
 * @returns {OptionParser}
 */
export function percentage ({ min, max }) {
  return (raw, flag) => {
    const text = String(raw).trim().replace(/%$/, '')
    const value = Number(text)
    if (!/^\d+(\.\d+)?$/.test(text) || value < min || value > max) throw invalidOption(flag, raw, `a percentage from ${min} to ${max} (e.g. 5 or 5%)`)
    return value
  }
}

/**
 * A comma-separated list of names, each one of `allowed`.
 * @param {readonly string[]} allowed
 * @returns {OptionParser}
 */
export function subsetOf (allowed) {
  return (raw, flag) => {
    const names = typeof raw === 'string' ? raw.split(',').map((name) => name.trim()).filter(Boolean) : []
    if (names.length === 0 || names.some((name) => !allowed.includes(name))) throw invalidOption(flag, raw, `one or more of ${allowed.join(', ')}, comma-separated`)
    return [...new Set(names)]
  }
}
