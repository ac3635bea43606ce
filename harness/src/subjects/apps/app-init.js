// @ts-check
// `dyno app init`: a dyno.config.yaml written for the service in a directory: from its OpenAPI document where one is given (a scenario
// per operation a request can be made for, the rest listed in the file with why), else a starter to fill in. It never writes over a
// config that is there.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parse as parseYaml, stringify } from 'yaml'
import { DynoError } from '../../platform/errors.js'
import { APP_CONFIG_FILES } from './app-config-schema.js'
import { openApiScenarios } from './openapi/openapi-scenarios.js'

/** An OpenAPI document larger than this is not read. */
const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024

/**
 * @param {string} dir the service's directory
 * @param {{ openapi: string | null, start: string | null }} from openapi: the document's path; start: the command that starts it
 * @returns {{ file: string, scenarios: string[], skipped: { operation: string, why: string }[] }}
 * @throws {DynoError} DYNO_ERR_APP_CONFIG: a config is there already, or the document cannot be read as OpenAPI 3
 */
export function initAppConfig (dir, { openapi, start }) {
  const present = APP_CONFIG_FILES.find((name) => existsSync(join(dir, name)))
  if (present) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${join(dir, present)} is there already; dyno app init writes a new config only`)
  }
  const manifest = readManifest(dir)
  const name = (typeof manifest?.name === 'string' ? manifest.name : basename(dir)).toLowerCase().replace(/^@[^/]+\//, '')
    .replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 64) || 'service'
  const file = join(dir, 'dyno.config.yaml')
  if (!openapi) {
    writeFileSync(file, starter(name, startOf(start, manifest)), { flag: 'wx' })
    return { file, scenarios: ['home'], skipped: [] }
  }
  const { scenarios, skipped } = fromDocument(openapi)
  const config = { name, start: startOf(start, manifest), scenarios }
  const header = [
    `# Written by dyno app init from ${basename(openapi)}: ${scenarios.length} scenario(s), one per operation a request could be made for.`,
    '# Check each request and expectation, then: dyno verify --app . (docs/app.md describes every key).',
    ...(skipped.length > 0 ? ['# Operations without a scenario:', ...skipped.map((entry) => `#   ${entry.operation}: ${entry.why}`)] : [])
  ]
  writeFileSync(file, `${header.join('\n')}\n${stringify(config, { lineWidth: 0 })}`, { flag: 'wx' })
  return { file, scenarios: scenarios.map((scenario) => scenario.name), skipped }
}

/** @param {string} path */
function fromDocument (path) {
  if (!existsSync(path) || !statSync(path).isFile()) throw new DynoError('DYNO_ERR_APP_CONFIG', `\`${path}\` is not a file`)
  if (statSync(path).size > MAX_DOCUMENT_BYTES) throw new DynoError('DYNO_ERR_APP_CONFIG', `${path}: larger than 8 MiB`)
  try {
    const document = parseYaml(readFileSync(path, 'utf8'), { maxAliasCount: 1000 })
    const found = openApiScenarios(document)
    if (found.scenarios.length === 0) throw new Error('no operation of it can be made a request of')
    return found
  } catch (error) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${path}: ${/** @type {Error} */ (error).message}`, { cause: error })
  }
}

/**
 * How the service starts: the command given, else its package.json's start script, else its main file.
 * @param {string | null} start @param {Record<string, any> | null} manifest
 * @returns {{ command: string[] } | { file: string }}
 */
function startOf (start, manifest) {
  if (start) return { command: ['sh', '-c', start] }
  if (typeof manifest?.scripts?.start === 'string') return { command: ['npm', 'start', '--silent'] }
  return { file: typeof manifest?.main === 'string' ? manifest.main : 'server.js' }
}

/** @param {string} dir @returns {Record<string, any> | null} */
function readManifest (dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  } catch {
    return null
  }
}

/** @param {string} name @param {{ command: string[] } | { file: string }} start @returns {string} a config to fill in, with its comments */
function starter (name, start) {
  return `# How dyno starts and measures this service: fill in your routes, then dyno verify --app . (docs/app.md).
name: ${name}
start:
${stringify(start).trimEnd().split('\n').map((line) => `  ${line}`).join('\n')}
  # port: env                  # dyno passes a free port in PORT (default); or the number of the port it always uses
  # ready: { path: /health, status: 200 }   # ready once this answers; default: once GET / answers at all
# services:
#   postgres: { env: DATABASE_URL }   # dyno starts PostgreSQL for the run and passes its address in this variable
scenarios:
  - name: home
    request: { method: GET, path: / }
    expect: { status: 200 }    # add contentType, and body: { text }, { json }, { schema } or { module }
  # - name: browse             # a weighted mix instead of one request: each in proportion, all meeting one expectation
  #   mix:
  #     - { weight: 9, request: { path: '/items/{id}', params: { id: { integer: { min: 1, max: 1000 } } } } }
  #     - { weight: 1, request: { method: POST, path: /orders, headers: { content-type: application/json }, body: '{}' } }
  #   expect: { status: 200 }
`
}
