// @ts-check
// The manifest a SUT build writes for the harness (`dyno.buildManifest`): read back to decide whether
// the build is up to date, and replaced atomically so a reader never sees half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** @param {string} manifestPath @returns {Record<string, any> | null} null when absent or unreadable */
export function previousManifest (manifestPath) {
  try {
    return JSON.parse(readFileSync(manifestPath, 'utf8'))
  } catch {
    return null
  }
}

/** @param {string} manifestPath @param {Record<string, unknown>} manifest */
export function writeManifest (manifestPath, manifest) {
  mkdirSync(dirname(manifestPath), { recursive: true })
  const temporary = `${manifestPath}.tmp`
  writeFileSync(temporary, JSON.stringify(manifest, null, 2) + '\n')
  renameSync(temporary, manifestPath)
}
