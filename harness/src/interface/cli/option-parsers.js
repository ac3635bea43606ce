// @ts-check
import { checkRuntimeNames } from '../../subjects/runtimes/runtime-targets.js'
import { resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { checkWritableDirectory, inputKind } from '../../platform/util/checked-paths.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { selectScenarios, selectSuts } from '../../subjects/suts/select.js'
import { SCENARIOS } from '@dyno/scenarios'
import { machineCpus } from '../../platform/pinning/cpu-list.js'
import { parsePin } from '../../platform/pinning/parse-pin.js'
import { HOST_KINDS, hostForms, parseHost } from '../../platform/hosts/host-kinds.js'
import { parseFrameworkEntry } from '../../subjects/variants/framework-entry.js'
import { checkedPathManifest } from '../../subjects/variants/resolve-variant.js'
import semver from 'semver'

/**
 * Parsers for option values. Each takes the value as typed (a string, or true for an option given without one)
 * and the flag it came from, and returns the typed value or throws DYNO_ERR_INVALID_OPTION
 * naming the flag, the bad value and what is allowed. Its `domain` says what it accepts, so that the tests can
 * derive the values each option must refuse from the option table alone.
 * @typedef {{ kind: 'whole' | 'wholeList' | 'seconds' | 'positive' | 'percentage', min: number, max: number, minExclusive?: boolean,
 *   maxExclusive?: boolean }
 *   | { kind: 'oneOf' | 'subset', allowed: readonly string[] }
 *   | { kind: 'names' | 'outputDirectory' | 'inputDirectory' | 'flag' | 'pin' | 'host' | 'hostList' | 'shard' }} OptionDomain
 * @typedef {((raw: unknown, flag: string) => any) & { domain: OptionDomain }} OptionParser
 */

/**
 * @param {(raw: unknown, flag: string) => any} parse
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
 * A number above 0 (decimals allowed), at most `max`.
 * @param {{ max: number }} range
 * @returns {OptionParser}
 */
export function positiveNumber ({ max }) {
  return withDomain((raw, flag) => {
    const text = String(raw).trim()
    const value = Number(text)
    if (!/^\d+(\.\d+)?$/.test(text) || value <= 0 || value > max) throw invalidOption(flag, raw, `a number above 0, at most ${max}`)
    return value
  }, { kind: 'positive', min: 0, max, minExclusive: true })
}

export const nameList = withDomain(function nameList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    throw invalidOption(flag, raw, 'a comma-separated list of names')
  }
  const names = String(raw).split(',').map((name) => name.trim()).filter(Boolean)
  if (names.length === 0) throw invalidOption(flag, raw, 'a comma-separated list of at least one name')
  return [...new Set(names)]
}, { kind: 'names' })

/** SUT names, each one under packages/ (checked here, so no later step starts before a typo is seen). */
export const frameworkList = withDomain(function frameworkList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  const names = nameList(raw, flag)
  selectSuts(discoverSuts(), names)
  return names
}, { kind: 'names' })

/**
 * SUT names, or variants of their frameworks (`express@4.21.2`, `fastify@^4`, `koa@latest`, `fastify@path:../fastify`): each
 * SUT under packages/, a variant only of a SUT whose framework is an npm package, a version, range or dist-tag that could
 * exist, a path that holds the framework. Whether the registry has the version is asked later, still before anything starts.
 */
export const frameworkEntryList = withDomain(function frameworkEntryList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  const entries = nameList(raw, flag)
  const catalogue = discoverSuts()
  selectSuts(catalogue, [...new Set(entries.map((entry) => parseFrameworkEntry(entry).name))])
  for (const entry of entries.map(parseFrameworkEntry)) {
    if (!entry.spec) continue
    const sut = /** @type {import('../../subjects/suts/discover-suts.js').SutDescriptor} */ (catalogue.find((candidate) => candidate.name === entry.name))
    const varied = catalogue.filter((candidate) => candidate.runtimeKind === 'node' && !candidate.framework.startsWith('node:'))
      .map((candidate) => candidate.name)
    const allowed = `a SUT, or a SUT of an npm framework with \`@<version>\`, \`@<range>\`, \`@<dist-tag>\` or \`@path:<dir>\` (${varied.join(', ')})`
    if (!varied.includes(sut.name)) {
      throw new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`${flag}\` \`${entry.text}\`: ${sut.name} has no framework package to vary ` +
        `(its framework is ${sut.framework}${sut.runtimeKind === 'node' ? '' : `, on ${sut.runtimeKind}`}); allowed: ${allowed}`)
    }
    if (entry.spec.kind === 'path') {
      if (entry.spec.path.trim() === '') throw invalidOption(flag, raw, `${allowed}; \`${entry.text}\` names no directory`)
      checkedPathManifest(entry.text, sut.framework, entry.spec.path, resolve(process.env.INIT_CWD || process.cwd(), entry.spec.path))
    } else if (!semver.valid(entry.spec.text) && !semver.validRange(entry.spec.text) && !/^[a-z][a-z0-9._-]*$/i.test(entry.spec.text)) {
      throw invalidOption(flag, raw, `${allowed}; \`${entry.spec.text}\` is neither a version, a range nor a dist-tag`)
    }
  }
  return entries
}, { kind: 'names' })

/**
 * `--frameworks` of a timeline: each entry a SUT of an npm framework with the range of its releases to measure (`express@>=4.18`,
 * `fastify@^4 || ^5`), checked as `--frameworks` checks a variant, and a range it must be.
 */
export const frameworkRangeList = withDomain(function frameworkRangeList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  const entries = frameworkEntryList(raw, flag)
  for (const entry of entries.map(parseFrameworkEntry)) {
    if (!entry.spec || entry.spec.kind !== 'npm' || !semver.validRange(entry.spec.text)) {
      throw invalidOption(flag, raw, 'SUTs each with the range of its framework\'s releases to measure (`express@>=4.18`, `fastify@^4 || ^5`, ' +
        `\`koa@*\`); \`${entry.text}\` names no range`)
    }
  }
  return entries
}, { kind: 'names' })

/** Scenario names, each one of the contract's. */
export const scenarioList = withDomain(function scenarioList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  const names = nameList(raw, flag)
  selectScenarios([...SCENARIOS], names)
  return names
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

/** An option given without a value (`--paired`, `--no-verify`). */
export const flag = withDomain(function flag (/** @type {unknown} */ raw, /** @type {string} */ name) {
  if (typeof raw !== 'boolean') throw invalidOption(name, raw, 'given without a value')
  return raw
}, { kind: 'flag' })

/**
 * A comma-separated list of runtime names, each one dyno knows; throws DYNO_ERR_UNKNOWN_RUNTIME
 * naming the unknown ones and the valid ones.
 */
export const runtimeList = withDomain(function runtimeList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  return [...new Set(checkRuntimeNames(nameList(raw, flag)))]
}, { kind: 'names' })

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

/** `--pin auto|off|sut=<cpus>,gen=<cpus>`, judged against the cpus this process may use. */
export const pinOption = withDomain((raw, flag) => parsePin(raw, flag, machineCpus()), { kind: 'pin' })

/** One host, of any kind hosts/host-kinds.js lists (`local`, `ssh://[user@]host[:port][/dir]`, …). */
export const hostTarget = withDomain((raw, flag) => parseHost(String(raw), flag), { kind: 'host' })

/**
 * An option's message without the option it opens with and the value it ends with (`--x` must …, got `v`): what is left says
 * what was wrong, for a message about one entry of a list.
 * @param {string} message
 */
const withoutFlagAndValue = (message) => message.replace(/^\x60[^\x60]*\x60 /, '').replace(/, got \x60.*\x60$/, '')

/** Hosts of any kind, comma-separated, each once: where the load comes from (`--load-hosts`). */
export const hostList = withDomain(function hostList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  const text = typeof raw === 'string' ? raw.trim() : ''
  const entries = text.split(',').map((entry) => entry.trim())
  const allowed = `a comma-separated list of hosts, each once: ${hostForms(HOST_KINDS)}`
  if (text === '' || entries.some((entry) => entry === '')) throw invalidOption(flag, raw, allowed)
  const hosts = entries.map((entry) => {
    try {
      return parseHost(entry, flag)
    } catch (error) {
      throw invalidOption(flag, raw, `${allowed} (\`${entry}\`: ${withoutFlagAndValue(/** @type {Error} */ (error).message)})`)
    }
  })
  const twice = hosts.map((host) => host.url).find((name, index, names) => names.indexOf(name) !== index)
  if (twice) throw invalidOption(flag, raw, `a list that names each host once (\`${twice}\` is there twice)`)
  return hosts
}, { kind: 'hostList' })

/** The most parts a plan is split into: more jobs than any CI matrix runs (GitHub's allows 256). */
export const MAX_SHARDS = 256

/**
 * `K/N`: the K-th of N parts of a run's plan (`--shard`), 1 ≤ K ≤ N.
 * @typedef {{ index: number, count: number }} ShardSpec
 */
export const shardSpec = withDomain(function shardSpec (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  const text = typeof raw === 'string' ? raw.trim() : ''
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text)
  const allowed = `K/N: part K of N parts, whole numbers with 1 ≤ K ≤ N ≤ ${MAX_SHARDS} (e.g. \`2/4\`)`
  if (!match) throw invalidOption(flag, raw, allowed)
  const index = Number(match[1])
  const count = Number(match[2])
  if (count < 1 || count > MAX_SHARDS || index < 1 || index > count) throw invalidOption(flag, raw, allowed)
  return /** @type {ShardSpec} */ ({ index, count })
}, { kind: 'shard' })
