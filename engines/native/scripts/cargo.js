// @ts-check
// Where cargo is, for scripts/build.js and scripts/check.js: on PATH, or where rustup puts it (~/.cargo/bin), which
// is not on the PATH of a shell that has not read rustup's profile.
import { spawnSync } from 'node:child_process'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** The Rust to install, and where from (rust-version in Cargo.toml: the oldest the locked crates build with). */
export const RUST = 'Rust 1.88 or newer (https://rustup.rs; it puts cargo in ~/.cargo/bin)'

/** @returns {string | null} cargo from PATH, or where rustup puts it */
export function findCargo () {
  for (const candidate of ['cargo', join(homedir(), '.cargo', 'bin', 'cargo')]) {
    if (!spawnSync(candidate, ['--version'], { encoding: 'utf8' }).error) return candidate
  }
  return null
}
