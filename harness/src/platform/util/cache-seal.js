// @ts-check
// What dyno keeps in its cache directory (the engine calibration, counts) is read back as measured, so it carries a seal: an
// HMAC of its content under a random key that this cache directory holds (created with it, readable by its owner only). A file
// dyno did not write with that key (made or edited by hand, copied from another cache) fails its seal and is measured again.
// The seal tells dyno's own writes from any other file; it is not a defence against someone who can read the cache directory.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeDirectory } from './checked-paths.js'

const KEY_FILE = 'seal.key'
const KEY_PATTERN = /^[0-9a-f]{64}$/

/**
 * @param {string} cacheDir @param {{ create: boolean }} mode
 * @returns {Buffer | null} the cache directory's key; null when it has none (and `create` is false)
 */
function sealKey (cacheDir, { create }) {
  const file = join(cacheDir, KEY_FILE)
  const read = () => {
    try {
      const text = readFileSync(file, 'utf8').trim()
      return KEY_PATTERN.test(text) ? Buffer.from(text, 'hex') : null
    } catch {
      return null
    }
  }
  const found = read()
  if (found || !create) return found
  makeDirectory(cacheDir)
  try {
    // `wx`: two runs creating it at once keep the first one's key.
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error
  }
  return read()
}

/** @param {Buffer} key @param {unknown} content @returns {string} */
const hmacOf = (key, content) => createHmac('sha256', key).update(JSON.stringify(content)).digest('hex')

/**
 * The seal of content about to be written to the cache directory (whose key is made the first time).
 * @param {string} cacheDir @param {unknown} content JSON-ready, written as it is beside its seal
 * @returns {string}
 */
export function sealOf (cacheDir, content) {
  const key = sealKey(cacheDir, { create: true })
  if (!key) throw new Error(`${join(cacheDir, KEY_FILE)} cannot be read back after it was written`)
  return hmacOf(key, content)
}

/**
 * Whether content read from the cache directory carries the seal this directory would give it.
 * @param {string} cacheDir @param {unknown} content as parsed from the file, without its seal @param {unknown} seal as read
 * @returns {boolean}
 */
export function sealHolds (cacheDir, content, seal) {
  const key = sealKey(cacheDir, { create: false })
  if (!key || typeof seal !== 'string' || !/^[0-9a-f]{64}$/.test(seal)) return false
  return timingSafeEqual(Buffer.from(hmacOf(key, content), 'hex'), Buffer.from(seal, 'hex'))
}
