// @ts-check
// The JS runtimes a run may put Node-compatible SUTs on. The runtimes themselves come from the
// @dyno/runtimes workspace package (npm-installed Node 20/22/24, Bun, Deno); `node` is the Node that runs
// the harness.
import { RUNTIME_NAMES, resolveRuntime } from '@dyno/runtimes'
import { DynoError } from '../../platform/errors.js'

export const DEFAULT_RUNTIME = 'node'
export { RUNTIME_NAMES }

/**
 * @typedef {{ name: string, kind: 'node' | 'bun' | 'deno', executable: string, args: string[], version: string }} RuntimeTarget
 * @typedef {{ name: string, target: RuntimeTarget | null, problem: string | null }} ResolvedRuntime
 */

/**
 * Checks runtime names against the known ones (the boundary check of --runtime).
 * @param {string[]} names
 * @returns {string[]}
 * @throws {DynoError} DYNO_ERR_UNKNOWN_RUNTIME
 */
export function checkRuntimeNames (names) {
  const unknown = names.filter((name) => !RUNTIME_NAMES.includes(name))
  if (unknown.length > 0) {
    throw new DynoError('DYNO_ERR_UNKNOWN_RUNTIME',
      `\`--runtime\`: unknown runtime ${unknown.map((name) => `\`${name}\``).join(', ')}; valid: ${RUNTIME_NAMES.join(', ')}`)
  }
  return names
}

/** @type {Map<string, ResolvedRuntime>} */
const resolved = new Map()

/**
 * Finds a runtime's executable and version once per process. A runtime that is not installed or does
 * not start is not an error here: the SUTs on it are skipped with this problem as the reason.
 * @param {string} name
 * @returns {ResolvedRuntime}
 */
export function resolveRuntimeTarget (name) {
  let entry = resolved.get(name)
  if (!entry) {
    try {
      entry = { name, target: resolveRuntime(name), problem: null }
    } catch (error) {
      entry = { name, target: null, problem: /** @type {Error} */ (error).message }
    }
    resolved.set(name, entry)
  }
  return entry
}
