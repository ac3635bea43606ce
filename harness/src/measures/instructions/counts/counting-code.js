// @ts-check
// The version of dyno's counting code, as far as a count can tell: the hash of the modules a count runs (the count itself and
// every module it imports, the environment a run gives its SUT, the allocation preload), each by its path and content. A count's
// cache key holds it, a count records it, and a timeline keeps counts of other counting code on lines of their own.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HARNESS_DIR } from '../../../platform/paths.js'

/** A module's imports of other modules of the harness by a relative path: static, bare (side effects only) and dynamic. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g
/**
 * Comments, left out before imports are looked for: a JSDoc type (`{import('../suts/resolve-subjects.js').Subject}`) runs nothing,
 * and following it took the SSH hosts, the registry's questions and the variants' installer into the counting code, so that a
 * change to any of them made every count anew and split a timeline's lines.
 */
const COMMENTS = /\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g
/**
 * Where a count's harness code starts: the count itself, the environment a run gives its SUT, and the allocation preload, which
 * runs inside the counted SUT, loaded by its URL, not imported.
 */
const COUNT_ENTRY_MODULES = ['./count-instructions.js', '../../../platform/env/run-env.js', './allocation-preload.js']
  .map((module) => fileURLToPath(new URL(module, import.meta.url)))

/**
 * The error catalogue: its codes and messages say why a count failed, and a count that failed is not a count. Adding a code to
 * it is an everyday change that must not make every count anew.
 */
const MESSAGES_ONLY = [fileURLToPath(new URL('../../../platform/errors.js', import.meta.url))]

/**
 * Some modules and every module they import by a relative path, directly or not (imports in comments, JSDoc types among them,
 * left out), sorted; a module in `leftOut` is neither listed nor followed.
 * @param {string[]} entries absolute paths @param {string[]} [leftOut] absolute paths
 * @returns {string[]} absolute paths
 */
export function moduleGraph (entries, leftOut = []) {
  const seen = new Set()
  const pending = [...entries]
  while (pending.length > 0) {
    const file = /** @type {string} */ (pending.pop())
    if (seen.has(file) || leftOut.includes(file)) continue
    seen.add(file)
    const code = readFileSync(file, 'utf8').replace(COMMENTS, '')
    for (const [, specifier] of code.matchAll(RELATIVE_IMPORT)) pending.push(resolve(dirname(file), specifier))
  }
  return [...seen].sort()
}

/**
 * The hash of a module graph (above), each module by its path relative to `root` and its content.
 * @param {string[]} entries absolute paths @param {string} root @param {string[]} [leftOut] absolute paths
 * @returns {string}
 */
export function moduleGraphHash (entries, root, leftOut = []) {
  const hash = createHash('sha256')
  for (const file of moduleGraph(entries, leftOut)) hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

/** The modules a count runs, relative to the harness: what its hash covers. */
export const countingModules = () => moduleGraph(COUNT_ENTRY_MODULES, MESSAGES_ONLY).map((file) => relative(HARNESS_DIR, file))

/** @type {string | undefined} */
let countingCodeDigest

/**
 * The hash of the harness code a count runs. A change to the reports, the load engines or the CLI leaves it as it is, so a
 * commit that touches only those counts nothing again.
 */
export const countingCodeHash = () => (countingCodeDigest ??= moduleGraphHash(COUNT_ENTRY_MODULES, HARNESS_DIR, MESSAGES_ONLY))
