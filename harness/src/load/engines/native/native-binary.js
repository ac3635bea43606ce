// @ts-check
// Where the native engine's binary is and which version it is: built by `pnpm install` (engines/native), with the manifest its build
// writes beside it, or the reason it is not there and what to install.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { NATIVE_ENGINE_DIR } from '../../../platform/paths.js'

const BINARY = join(NATIVE_ENGINE_DIR, 'target', 'release', 'dyno-load')
const MANIFEST = join(NATIVE_ENGINE_DIR, 'build', 'dyno-build.json')

/**
 * The built engine, or why there is none (with what to install).
 * @returns {{ ok: true, path: string, version: string } | { ok: false, reason: string }}
 */
export function findNativeEngine () {
  let manifest = null
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'))
  } catch {
    return {
      ok: false,
      reason:
        'the native engine is not built: run `pnpm install` (it builds engines/native with cargo; install Rust from https://rustup.rs or ' +
          '`apt-get install cargo`)'
    }
  }
  if (!manifest.ok) return { ok: false, reason: `the native engine is not built: ${manifest.skipReason}` }
  if (!existsSync(BINARY)) {
    return {
      ok: false,
      reason: `the native engine's binary ${BINARY} is missing: run \`pnpm --filter ` +
    '@dyno/engine-native build`'
    }
  }
  return { ok: true, path: BINARY, version: manifest.version }
}
