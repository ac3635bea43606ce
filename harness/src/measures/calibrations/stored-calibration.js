// @ts-check
// A calibration dyno keeps in its cache directory (the engine calibration, the noise calibration), read back only as dyno wrote it:
// readable JSON, carrying the cache directory's seal, measured with this machine's key. Anything else is not used, with one line saying
// why; what its content must hold besides is each calibration's own to check.
import { readFileSync } from 'node:fs'
import { sealHolds } from '../../platform/util/cache-seal.js'
import { keyDifferences } from './machine-key.js'

/**
 * @param {string} file @param {string} cacheDir its directory, whose seal it carries
 * @param {{ what: string, key: Record<string, unknown> }} expected what: its name in the note (`the engine calibration`); key: this
 *   machine's now
 * @returns {{ content: Record<string, unknown> | null, note: string | null }} content: as written, without its seal; null with no note:
 *   there is none
 */
export function readStoredCalibration (file, cacheDir, { what, key }) {
  let stored
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    if (code === 'ENOENT') return { content: null, note: null }
    return { content: null, note: `${what} ${file} is not readable JSON (${code ?? 'corrupt'}): ignored, measured again` }
  }
  const { seal, ...content } = stored && typeof stored === 'object' ? stored : {}
  if (!sealHolds(cacheDir, content, seal)) {
    return {
      content: null,
      note: `${what} ${file} was not written by dyno with this cache directory (its seal does not hold): ignored, measured again`
    }
  }
  const differs = keyDifferences(content.key, key)
  if (differs.length > 0) {
    return { content: null, note: `${what} ${file} was measured with another ${differs.join(', ')}: ignored, measured again` }
  }
  return { content, note: null }
}
