// @ts-check
// A service's `dyno.config.*`, found in its directory, parsed and judged against the schema: every problem is named with the file, the
// path inside it and what is allowed, all at once, before anything starts.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { join, relative, resolve, isAbsolute } from 'node:path'
import { Ajv } from 'ajv'
import { parse as parseYaml } from 'yaml'
import { DynoError } from '../../platform/errors.js'
import { APP_CONFIG_FILES, APP_CONFIG_SCHEMA } from './app-config-schema.js'
import { loadJsConfig } from './js-config.js'

/** A config larger than this is not a config. */
const MAX_CONFIG_BYTES = 1024 * 1024

/**
 * @typedef {{ method?: string, path: string, headers?: Record<string, string>, body?: string, bodyFile?: string,
 *   params?: Record<string, import('./request-params.js').ParamSpec> }} AppRequest
 * @typedef {{ status: number, contentType?: string, headers?: Record<string, string>,
 *   body?: { text?: string, json?: unknown, schema?: object, module?: string } }} AppExpect
 * @typedef {object} AppConfig
 * @property {string} [name]
 * @property {{ file?: string, command?: string[], cwd?: string, env?: Record<string, string>, port?: 'env' | number,
 *   ready?: { path: string, status?: number } }} start
 * @property {string[]} [install] how a checkout of another commit gets its dependencies, when it pins other ones (compare-commits)
 * @property {{ postgres?: { env?: string }, redis?: { env?: string } }} [services]
 * @property {AppScenario[]} scenarios
 * @typedef {{ name: string, summary?: string, waitsOnIo?: boolean, expect: AppExpect } &
 *   ({ request: AppRequest, mix?: undefined } | { request?: undefined, mix: { weight: number, request: AppRequest }[] })} AppScenario
 *   one request, or a weighted mix of them
 */

let validate = /** @type {import('ajv').ValidateFunction | null} */ (null)

/**
 * @param {string} dir the service's directory, as given
 * @returns {{ dir: string, file: string, config: AppConfig }} dir: its real path
 * @throws {DynoError} DYNO_ERR_APP_CONFIG: no config there, one that does not parse, or each way it breaks the schema
 */
export function readAppConfig (dir) {
  const root = realDirectory(dir)
  const name = APP_CONFIG_FILES.find((candidate) => existsSync(join(root, candidate)))
  if (!name) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${root}: no ${APP_CONFIG_FILES.join(', ')} here; write one (see docs/app.md)`)
  }
  const file = join(root, name)
  const size = statSync(file).size
  if (size > MAX_CONFIG_BYTES) throw new DynoError('DYNO_ERR_APP_CONFIG', `${file}: ${size} bytes; a config holds at most 1 MiB`)
  const config = /\.m?js$/.test(file) ? loadJsConfig(file, root) : parseConfig(file, readFileSync(file, 'utf8'))
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(APP_CONFIG_SCHEMA)
  if (!validate(config)) {
    const problems = (validate.errors ?? []).filter(told).map((problem) => `  ${file}: ${describeProblem(problem)}`)
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${file} breaks ${problems.length} rule(s):\n${[...new Set(problems)].join('\n')}`)
  }
  return { dir: root, file, config: /** @type {AppConfig} */ (config) }
}

/**
 * A path the config names (a working directory, a body file), which must stay inside the service's directory.
 * @param {string} root the service's real directory @param {string} file the config @param {string} where the key, e.g. `/start/cwd`
 * @param {string} path as written
 * @returns {string} its real path
 */
export function insideApp (root, file, where, path) {
  const full = resolve(root, path)
  if (!existsSync(full)) throw new DynoError('DYNO_ERR_APP_CONFIG', `${file}: ${where}: \`${path}\` does not exist`)
  const real = realpathSync(full)
  const rel = relative(root, real)
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new DynoError('DYNO_ERR_APP_CONFIG',
      `${file}: ${where}: \`${path}\` is outside the service's directory ${root}; it must be inside`)
  }
  return real
}

/** @param {string} dir */
function realDirectory (dir) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `\`${dir}\` is not a directory; --app takes the directory holding dyno.config.yaml`)
  }
  return realpathSync(dir)
}

/** @param {string} file @param {string} text */
function parseConfig (file, text) {
  try {
    return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 })
  } catch (error) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${file} does not parse: ${/** @type {Error} */ (error).message}`)
  }
}

/**
 * Whether a problem is told on its own: a key that one branch of a choice requires is told by the choice's own line.
 * @param {import('ajv').ErrorObject} problem
 */
const told = (problem) => !(problem.keyword === 'required' && /\/oneOf\/\d+\/required$/.test(problem.schemaPath))

/** @param {import('ajv').ErrorObject} problem @returns {string} where it is and what is allowed */
function describeProblem (problem) {
  const where = problem.instancePath || '/'
  const params = /** @type {Record<string, unknown>} */ (problem.params)
  if (problem.keyword === 'additionalProperties') return `${where}: \`${params.additionalProperty}\` is not a key dyno knows here`
  if (problem.keyword === 'enum') return `${where}: must be one of ${/** @type {unknown[]} */ (params.allowedValues).join(', ')}`
  if (problem.keyword === 'oneOf' && where.endsWith('/start')) return `${where}: give either \`file\` or \`command\`, not both or neither`
  if (problem.keyword === 'oneOf') return `${where}: give either \`request\` or \`mix\` (weighted requests), not both or neither`
  if (problem.keyword === 'not') return `${where}: give \`body\` or \`bodyFile\`, not both`
  return `${where}: ${problem.message}`
}
