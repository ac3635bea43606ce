// @ts-check
// What a `path:` variant installs is what its package would publish: npm's rules (its `files` field, .npmignore, the files npm
// always takes) decide, and a build output such as `dist` is part of it. `npm pack --dry-run` lists exactly that and gives the
// integrity of the tarball it would make (npm fixes every entry's time, so the integrity follows the files' paths, modes and
// contents only): a rebuilt checkout is a new variant, and a new count.
import { execFileSync } from 'node:child_process'
import { DynoError } from '../../platform/errors.js'

/**
 * @param {string} dir the checkout's package
 * @returns {string} the integrity (sha512) of the tarball `npm pack` would make of it, its scripts not run
 * @throws {DynoError} DYNO_ERR_VARIANT_INSTALL with npm's words
 */
export function packedIntegrity (dir) {
  let answer
  try {
    answer = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, maxBuffer: 64 * 2 ** 20
    }))
  } catch (error) {
    const said = /** @type {{ stderr?: string, message: string }} */ (error).stderr?.trim().split('\n').slice(-3).join(' / ') ||
    /** @type {Error} */ (error).message
    throw new DynoError(
      'DYNO_ERR_VARIANT_INSTALL',
      `npm pack --dry-run in ${dir} failed, so the files its package would publish are unknown: ${said}`
    )
  }
  const integrity = Array.isArray(answer) ? answer[0]?.integrity : null
  if (typeof integrity !== 'string') throw new DynoError('DYNO_ERR_VARIANT_INSTALL', `npm pack --dry-run in ${dir} named no integrity`)
  return integrity
}
