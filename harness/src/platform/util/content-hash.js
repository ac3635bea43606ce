// @ts-check
// What a cache key is made of: the sha256 of a file's bytes, or of a tree of files (each path relative to the tree's root and its
// bytes, in name order, so that a checkout elsewhere of the same files hashes the same). The caller says which entries are not
// part of what it keys (installed packages, build output, caches).
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/** @param {string} path @returns {string} the sha256 of its bytes, in hex */
export const fileHash = (path) => createHash('sha256').update(readFileSync(path)).digest('hex')

/**
 * The sha256 of every file below `root` that `skipped` does not leave out, with its path: a directory left out is not entered.
 * A root that does not exist hashes as an empty tree.
 * @param {string} root @param {(name: string) => boolean} skipped by an entry's name
 * @returns {string} hex
 */
export function treeHash (root, skipped) {
  const hash = createHash('sha256')
  const walk = (/** @type {string} */ dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (skipped(entry.name)) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) hash.update(`${relative(root, path)}\0`).update(readFileSync(path)).update('\0')
    }
  }
  if (existsSync(root)) walk(root)
  return hash.digest('hex')
}
