// @ts-check
import { resolve } from 'node:path'
import { DynoError } from '../errors.js'
import { REPO_ROOT } from '../paths.js'
import { checkWritableDirectory, inputKind } from '../util/checked-paths.js'

/**
 * Parsers for option values. Each takes the value as typed (a string, or true for an option given without one)
 * and the flag it came from, and returns the typed value or throws DYNO_ERR_INVALID_OPTION
 * naming the flag, the bad value and what is allowed. Its `domain` says what it accepts, so that the tests can
 * derive the values each option must refuse from the option table alone.
 * @typedef {{ kind: 'whole' | 'wholeList' | 'seconds' | 'positive' | 'percentage', min: number, max: number, minExclusive?: boolean,
 *   maxExclusive?: boolean }
 *   | { kind: 'oneOf' | 'subset', allowed: readonly string[] }
 *   | { kind: 'names' | 'outputDirectory' | 'inputDirectory' | 'flag' | 'pin' | 'host' | 'hostList' | 'shard' | 'objective' | 'app'
 *   | 'inputFile' | 'text' }}
 *   OptionDomain
 * @typedef {((raw: unknown, flag: string, values?: import('./option-spec.js').OptionValues) => any) & { domain: OptionDomain }}
 *   OptionParser values: the options given before it, parsed (`--scenarios` names the scenarios of the service `--app` gives)
 */

/**
 * @param {(raw: unknown, flag: string, values?: import('./option-spec.js').OptionValues) => any} parse
 * @param {OptionDomain} domain
 * @returns {OptionParser}
 */
export function withDomain (parse, domain) {
  return Object.assign(parse, { domain })
}

/** @param {string} flag @param {unknown} raw @param {string} allowed */
export function invalidOption (flag, raw, allowed) {
  return new DynoError('DYNO_ERR_INVALID_OPTION', `\`${flag}\` must be ${allowed}, got \`${String(raw)}\``)
}

/**
 * @param {{ min: number, max: number }} range
 * @returns {OptionParser}
 */
export function wholeNumber ({ min, max }) {
  return withDomain((raw, flag) => {
    const text = String(raw).trim()
    const value = Number(text)
    if (!/^\d+$/.test(text) || value < min || value > max) {
      throw invalidOption(flag, raw, `a whole number from ${min} to ${max}`)
    }
    return value
  }, { kind: 'whole', min, max })
}

/**
 * @param {{ min: number, max: number, minExclusive?: boolean }} range
 * @returns {OptionParser}
 */
export function seconds ({ min, max, minExclusive = false }) {
  return withDomain((raw, flag) => {
    const text = String(raw).trim()
    const value = Number(text)
    const tooSmall = minExclusive ? value <= min : value < min
    if (!/^\d+(\.\d+)?$/.test(text) || tooSmall || value > max) {
      throw invalidOption(flag, raw,
        `a number of seconds ${minExclusive ? 'above' : 'from'} ${min} ${minExclusive ? 'and up' : ''} to ${max}`.replace('  ', ' '))
    }
    return value
  }, { kind: 'seconds', min, max, minExclusive })
}

/**
 * A comma-separated list of whole numbers, e.g. `10,100,1000` (a sweep), each within the range.
 * @param {{ min: number, max: number }} range
 * @returns {OptionParser}
 */
export function wholeNumberList ({ min, max }) {
  const one = wholeNumber({ min, max })
  return withDomain((raw, flag) => {
    const parts = String(raw).split(',').map((part) => part.trim())
    if (parts.length === 0 || parts.some((part) => part === '')) {
      throw invalidOption(flag, raw, `a whole number from ${min} to ${max}, or a comma-separated list of them`)
    }
    const values = parts.map((part) => {
      try {
        return one(part, flag)
      } catch {
        throw invalidOption(flag, raw, `a whole number from ${min} to ${max}, or a comma-separated list of them`)
      }
    })
    return [...new Set(values)]
  }, { kind: 'wholeList', min, max })
}

/**
 * One of a fixed set of names.
 * @param {readonly string[]} allowed
 * @returns {OptionParser}
 */
export function oneOf (allowed) {
  return withDomain((raw, flag) => {
    if (!allowed.includes(String(raw))) throw invalidOption(flag, raw, `one of ${allowed.join(', ')}`)
    return String(raw)
  }, { kind: 'oneOf', allowed })
}

/**
 * A number above 0 (decimals allowed), at most `max`; with `min`, at least `min` (a rate below which the value means nothing).
 * @param {{ min?: number, max: number }} range
 * @returns {OptionParser}
 */
export function positiveNumber ({ min = 0, max }) {
  const allowed = min > 0 ? `a number from ${min}, at most ${max}` : `a number above 0, at most ${max}`
  return withDomain((raw, flag) => {
    const text = String(raw).trim()
    const value = Number(text)
    if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value) || value <= 0 || value < min || value > max) {
      throw invalidOption(flag, raw, allowed)
    }
    return value
  }, min > 0 ? { kind: 'positive', min, max } : { kind: 'positive', min: 0, max, minExclusive: true })
}

export const nameList = withDomain(function nameList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    throw invalidOption(flag, raw, 'a comma-separated list of names')
  }
  const names = String(raw).split(',').map((name) => name.trim()).filter(Boolean)
  if (names.length === 0) throw invalidOption(flag, raw, 'a comma-separated list of at least one name')
  return [...new Set(names)]
}, { kind: 'names' })

/**
 * A directory dyno writes in (relative paths from the repository root, where `pnpm bench` runs): it must be
 * one, or be creatable, and take new files. Checked here, before anything starts; created later.
 */
export const outputDirectory = withDomain(function outputDirectory (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidOption(flag, raw, 'a directory path')
  const path = resolve(REPO_ROOT, raw)
  checkWritableDirectory(path, `\`${flag}\` \`${raw}\`${path === raw ? '' : ` (${path})`}`)
  return raw
}, { kind: 'outputDirectory' })

/** A directory dyno reads (a run directory, named relative to the repository): it must be one. */
export const inputDirectory = withDomain(function inputDirectory (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidOption(flag, raw, 'a directory path')
  const path = resolve(REPO_ROOT, raw)
  if (inputKind(path, `\`${flag}\` \`${raw}\``) !== 'directory') throw invalidOption(flag, raw, `an existing directory (${path} is none)`)
  return raw
}, { kind: 'inputDirectory' })

/** A file dyno reads, named from where the command was typed (INIT_CWD under pnpm): it must be a regular file. */
export const inputFile = withDomain(function inputFile (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidOption(flag, raw, 'a file path')
  const path = resolve(process.env.INIT_CWD || process.cwd(), raw)
  if (inputKind(path, `\`${flag}\` \`${raw}\``) !== 'file') throw invalidOption(flag, raw, `an existing file (${path} is none)`)
  return path
}, { kind: 'inputFile' })

/** Text of one line, as given (a command a shell runs). */
export const text = withDomain(function text (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  if (typeof raw !== 'string' || raw.trim() === '' || /[\0\r\n]/.test(raw) || raw.length > 4096) {
    throw invalidOption(flag, raw, 'one line of text (up to 4,096 characters, no NUL)')
  }
  return raw
}, { kind: 'text' })

/** An option given without a value (`--paired`, `--no-verify`). */
export const flag = withDomain(function flag (/** @type {unknown} */ raw, /** @type {string} */ name) {
  if (typeof raw !== 'boolean') throw invalidOption(name, raw, 'given without a value')
  return raw
}, { kind: 'flag' })

/**
 * A percentage from `min` to `max`, written `5` or `5%`; `exclusive`: strictly between them.
 * @param {{ min: number, max: number, exclusive?: boolean }} range
 * @returns {OptionParser}
 */
export function percentage ({ min, max, exclusive = false }) {
  return withDomain((raw, flag) => {
    const text = String(raw).trim().replace(/%$/, '')
    const value = Number(text)
    const outside = exclusive ? value <= min || value >= max : value < min || value > max
    if (!/^\d+(\.\d+)?$/.test(text) || outside) {
      throw invalidOption(flag, raw, `a percentage ${exclusive ? `above ${min} and below ${max}` : `from ${min} to ${max}`} (e.g. 5 or 5%)`)
    }
    return value
  }, { kind: 'percentage', min, max, ...(exclusive ? { minExclusive: true, maxExclusive: true } : {}) })
}

/**
 * A comma-separated list of names, each one of `allowed`.
 * @param {readonly string[]} allowed
 * @returns {OptionParser}
 */
export function subsetOf (allowed) {
  return withDomain((raw, flag) => {
    const names = typeof raw === 'string' ? raw.split(',').map((name) => name.trim()).filter(Boolean) : []
    if (names.length === 0 || names.some((name) => !allowed.includes(name))) {
      throw invalidOption(flag, raw, `one or more of ${allowed.join(', ')}, comma-separated`)
    }
    return [...new Set(names)]
  }, { kind: 'subset', allowed })
}
