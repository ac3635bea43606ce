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
 * Where a count's harness code starts: the count itself, the environment a run gives its SUT, and the allocation preload, which
 * runs inside the counted SUT, loaded by its URL, not imported.
 */
const COUNT_ENTRY_MODULES = ['./count-instructions.js', '../../../platform/env/run-env.js', './allocation-preload.js']
  .map((module) => fileURLToPath(new URL(module, import.meta.url)))

/**
 * The hash of some modules and every module they import by a relative path, directly or not, each by its path relative to
 * `root` and its content.
 * @param {string[]} entries absolute paths @param {string} root
 * @returns {string}
 */
export function moduleGraphHash (entries, root) {
  const seen = new Set()
  const pending = [...entries]
  while (pending.length > 0) {
    const file = /** @type {string} */ (pending.pop())
    if (seen.has(file)) continue
    seen.add(file)
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) pending.push(resolve(dirname(file), specifier))
  }
  const hash = createHash('sha256')
  for (const file of [...seen].sort()) hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

/** @type {string | undefined} */
let countingCodeDigest

/**
 * The hash of the harness code a count runs. A change to the reports, the load engines or the CLI leaves it as it is, so a
 * commit that touches only those counts nothing again.
 */
export const countingCodeHash = () => (countingCodeDigest ??= moduleGraphHash(COUNT_ENTRY_MODULES, HARNESS_DIR))
