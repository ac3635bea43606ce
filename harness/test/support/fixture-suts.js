// @ts-check
import { fileURLToPath } from 'node:url'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'

export const FIXTURE_SUTS_DIR = fileURLToPath(new URL('../fixtures/suts/', import.meta.url))

/**
 * @typedef {'never-ready' | 'wrong-body' | 'crash-during-load' | 'wrong-under-load' | 'ignores-sigterm' | 'caching-redis' | 'skipped-here'
 *   | 'cpu-work' | 'json-in-two-writes' | 'accepts-few-connections' | 'keeps-every-request' | 'writes-hostile-runtime-files'
 *   | 'claims-h2-serves-http1' | 'heavy-tail' | 'stalls-accept' | 'fixed-service-time'
 *   | 'wrong-accept-key' | 'echo-differs' | 'serves-tls' | 'old-ready-line' | 'hostile' | 'answers-late'} FixtureName
 */

/** @param {FixtureName} name */
export function fixtureSut (name) {
  return loadSut(`${FIXTURE_SUTS_DIR}${name}`)
}
