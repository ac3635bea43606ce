// @ts-check
import { accessSync, constants, readdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** @param {string} path */
function isExecutable (path) {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The first executable named `name` on PATH, then in `extraDirs`, or null.
 * @param {string} name
 * @param {string[]} [extraDirs]
 * @param {NodeJS.ProcessEnv} [env] whose PATH is searched
 * @returns {string | null}
 */
export function findExecutable (name, extraDirs = [], env = process.env) {
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...extraDirs]
  for (const dir of dirs) {
    const candidate = join(dir, name)
    if (isExecutable(candidate)) return candidate
  }
  return null
}

/**
 * Directories of installed PostgreSQL versions (Debian layout), newest first.
 * @param {string} [root]
 * @returns {string[]}
 */
export function postgresBinDirs (root = '/usr/lib/postgresql') {
  try {
    return readdirSync(root)
      .filter((version) => /^\d+$/.test(version))
      .sort((a, b) => Number(b) - Number(a))
      .map((version) => join(root, version, 'bin'))
  } catch {
    return []
  }
}
