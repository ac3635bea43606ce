// @ts-check
// The parsers of options whose values name what dyno knows (SUTs, scenarios, runtimes, hosts, cpus, the parts of a plan); the generic
// ones (whole numbers, seconds, one of a list, directories) are platform/options/option-parsers.js.
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import semver from 'semver'
import { SCENARIOS } from '@dyno/scenarios'
import { DynoError, isDynoError } from '../../platform/errors.js'
import { checkRuntimeNames } from '../../subjects/runtimes/runtime-targets.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { selectScenarios, selectSuts } from '../../subjects/suts/select.js'
import { parseFrameworkEntry } from '../../subjects/variants/framework-entry.js'
import { loadApp } from '../../subjects/apps/load-app.js'
import { APP_CONFIG_FILES } from '../../subjects/apps/app-config-schema.js'
import { subjectCatalogue } from '../../subjects/suts/subject-catalogue.js'
import { machineCpus } from '../../platform/pinning/cpu-list.js'
import { parsePin } from '../../platform/pinning/parse-pin.js'
import { HOST_KINDS, hostForms, parseHost } from '../../platform/hosts/host-kinds.js'
import { invalidOption, nameList, withDomain } from '../../platform/options/option-parsers.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionValues} OptionValues */

/** SUT names, each one under packages/ (checked here, so no later step starts before a typo is seen). */
export const frameworkList = withDomain(function frameworkList (
  /** @type {unknown} */ raw, /** @type {string} */ flag, /** @type {OptionValues | undefined} */ values
) {
  const names = nameList(raw, flag)
  selectSuts(/** @type {import('../../subjects/apps/load-app.js').App | null | undefined} */ (values?.app)?.suts ?? discoverSuts(), names)
  return names
}, { kind: 'names' })

/**
 * SUT names, or variants of their frameworks (`express@4.21.2`, `fastify@^4`, `koa@latest`, `fastify@path:../fastify`); with --app,
 * the service, or versions of its dependencies (`express@5.1.0`): judged by what the run varies (variant-source.js). Whether the
 * registry has the version is asked later, still before anything starts.
 */
export const frameworkEntryList = withDomain(function frameworkEntryList (
  /** @type {unknown} */ raw, /** @type {string} */ flag, /** @type {OptionValues | undefined} */ values
) {
  const entries = nameList(raw, flag)
  subjectCatalogue(/** @type {import('../../subjects/apps/load-app.js').App | null | undefined} */ (values?.app)).variants
    .check(entries, flag, raw)
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
      throw invalidOption(
        flag,
        raw,
        "SUTs each with the range of its framework's releases to measure (`express@>=4.18`, `fastify@^4 || ^5`, " +
          `\`koa@*\`); \`${entry.text}\` names no range`
      )
    }
  }
  return entries
}, { kind: 'names' })

/** Scenario names, each one of the contract's, or of the service's with `--app` (given before). */
export const scenarioList = withDomain(function scenarioList (
  /** @type {unknown} */ raw, /** @type {string} */ flag, /** @type {OptionValues | undefined} */ values
) {
  const names = nameList(raw, flag)
  const app = /** @type {import('../../subjects/apps/load-app.js').App | null | undefined} */ (values?.app)
  selectScenarios([...(app?.scenarios ?? SCENARIOS)], names)
  return names
}, { kind: 'names' })

/** `--app DIR`: a directory holding a service's dyno.config.*, read and judged whole (load-app.js). */
export const appDirectory = withDomain(function appDirectory (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  const dir = resolve(process.env.INIT_CWD || process.cwd(), String(raw))
  if (String(raw).trim() === '' || !existsSync(dir) || !statSync(dir).isDirectory()) {
    throw invalidOption(flag, raw, `an existing directory holding one of ${APP_CONFIG_FILES.join(', ')}`)
  }
  try {
    return loadApp(dir)
  } catch (error) {
    if (!isDynoError(error)) throw error
    throw new DynoError(error.code, `\`${flag}\` \`${String(raw)}\`: ${error.message}`, { cause: error })
  }
}, { kind: 'app' })

/**
 * A comma-separated list of runtime names, each one dyno knows; throws DYNO_ERR_UNKNOWN_RUNTIME
 * naming the unknown ones and the valid ones.
 */
export const runtimeList = withDomain(function runtimeList (/** @type {unknown} */ raw, /** @type {string} */ flag) {
  return [...new Set(checkRuntimeNames(nameList(raw, flag)))]
}, { kind: 'names' })

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
 * @typedef {import('../../suite/plan/plan-parts.js').ShardSpec} ShardSpec
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
