// @ts-check
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The installed version of a SUT's framework, read from the SUT's own node_modules (what runs, not
 * what package.json asks for). Node built-ins (`node:http`) report the Node version.
 * @param {string} sutDir
 * @param {string} framework
 * @returns {string | null} null when the package is not installed
 */
export function frameworkVersion (sutDir, framework) {
  if (framework.startsWith('node:')) return process.versions.node
  try {
    return JSON.parse(readFileSync(join(sutDir, 'node_modules', framework, 'package.json'), 'utf8')).version ?? null
  } catch {
    return null
  }
}
