// @ts-check
// A `dyno.config.mjs` (or `.js`): a module whose default export is the config, or a function (async too) that returns it, for values a
// service's repository computes (a body built from its fixtures, a path from its data). It is the service's code, so it runs as the
// service does: in a process of its own, in the service's directory, never in dyno's; what it gives back is data, judged by the same
// schema as a YAML config, and a value that is not data (a function, undefined, a Symbol) is named by its path, not dropped.
import { spawnSync } from 'node:child_process'
import { DynoError } from '../../platform/errors.js'

/** A config module that has not given its config in this time is refused. */
const LOAD_TIMEOUT_MS = 10_000
/** Node's exit code for a module whose top-level await never settled. */
const UNSETTLED_AWAIT_EXIT = 13
/** The config it gives back is at most this large, as a YAML config is. */
const MAX_CONFIG_BYTES = 1024 * 1024

// Runs in the child: imports the module, awaits what it exports, and writes the config (or the paths of its values that are not data) on
// fd 3, so that whatever the module prints on stdout is not taken for it.
const LOADER = `
import { writeSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
const reply = (answer) => writeSync(3, JSON.stringify(answer))
const notData = []
const walk = (value, path) => {
  const kind = typeof value
  if (kind === 'undefined') notData.push([path || '/', 'undefined'])
  else if (kind === 'function' || kind === 'symbol' || kind === 'bigint') notData.push([path || '/', 'a ' + kind])
  else if (kind === 'number' && !Number.isFinite(value)) notData.push([path || '/', String(value)])
  else if (Array.isArray(value)) value.forEach((item, index) => walk(item, path + '/' + index))
  else if (value !== null && kind === 'object') for (const [key, item] of Object.entries(value)) walk(item, path + '/' + key)
}
try {
  const module = await import(pathToFileURL(process.argv[1]).href)
  const given = typeof module.default === 'function' ? await module.default() : module.default
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    reply({ refused: 'its default export must be the config object, or a function returning it; it gave ' +
      (Array.isArray(given) ? 'an array' : given === null ? 'null' : typeof given) })
  } else {
    walk(given, '')
    reply(notData.length > 0 ? { notData } : { config: given })
  }
} catch (error) {
  reply({ refused: 'does not load: ' + (error instanceof Error ? error.message : String(error)) })
}
`

/**
 * @param {string} file the module's real path @param {string} root the service's real directory, where the module runs
 * @returns {unknown} the config it gives, not yet judged by the schema
 * @throws {DynoError} DYNO_ERR_APP_CONFIG: the module fails, gives no object, gives values that are not data, or takes too long
 */
export function loadJsConfig (file, root) {
  const child = spawnSync(process.execPath, ['--input-type=module', '--eval', LOADER, file], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    timeout: LOAD_TIMEOUT_MS,
    maxBuffer: MAX_CONFIG_BYTES
  })
  const answer = child.output?.[3]?.toString() ?? ''
  if (child.error || answer === '') {
    const said = child.stderr?.toString().trim().split('\n').slice(-3).join(' ') || 'it printed nothing'
    const why = child.error?.message.includes('ETIMEDOUT')
      ? `gave no config within ${LOAD_TIMEOUT_MS / 1000} s`
      : child.error
        ? `did not load: ${child.error.message}`
        : child.status === UNSETTLED_AWAIT_EXIT
          ? 'ended with a top-level await that never settled, without giving a config'
          : `exited ${child.status ?? child.signal} without giving a config: ${said}`
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${file} ${why}`)
  }
  const { config, refused, notData } = JSON.parse(answer)
  if (refused) throw new DynoError('DYNO_ERR_APP_CONFIG', `${file} ${refused}`)
  if (notData) {
    const lines = notData.map((/** @type {[string, string]} */ [path, kind]) =>
      `  ${file}: ${path}: is ${kind}, which a config cannot hold; give a string, number, boolean, null, array or object`)
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${file} breaks ${lines.length} rule(s):\n${lines.join('\n')}`)
  }
  return config
}
