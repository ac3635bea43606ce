// @ts-check
// Builds the native load engine (target/release/dyno-load) with cargo and writes build/dyno-build.json, the
// manifest the harness reads. Run by `pnpm install` (prepare); cargo itself makes it quick when up to date.
// Without Rust it writes `{ ok: false, skipReason }` and exits 0: installing never fails for want of Rust,
// and `--engine native` then says what to install. A real build error fails (its output is on stderr).
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeManifest } from '@dyno/scenarios/build/build-manifest.js'
import { findCargo, RUST } from './cargo.js'

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))
const MANIFEST = join(PACKAGE_DIR, 'build', 'dyno-build.json')
const BINARY = join(PACKAGE_DIR, 'target', 'release', 'dyno-load')
const GET_RUST = `install ${RUST} and run \`pnpm install\` again`
/** @param {string} line */
const progress = (line) => process.stderr.write(`engine-native: ${line}\n`)

const cargo = findCargo()
if (!cargo) {
  progress(`skipped: cargo is not installed: ${GET_RUST}`)
  writeManifest(MANIFEST, { ok: false, skipReason: `cargo is not installed: ${GET_RUST}` })
} else {
  const rustc = spawnSync(cargo, ['--version'], { encoding: 'utf8' }).stdout.trim()
  progress(`building with ${rustc} (the first build downloads and compiles its crates: a minute)…`)
  const started = Date.now()
  const build = spawnSync(cargo, ['build', '--release', '--locked'], { cwd: PACKAGE_DIR, stdio: ['ignore', 2, 2] })
  if (!build.error && build.status === 0) placeBinary()
  if (build.error || build.status !== 0 || !existsSync(BINARY)) {
    progress(`\`cargo build\` failed (${build.error?.message ?? `exit code ${build.status}`})`)
    writeManifest(MANIFEST, {
      ok: false, skipReason: `\`cargo build\` failed with ${rustc}; run \`pnpm --filter @dyno/engine-native build\` and read its output`
    })
    process.exitCode = 1
  } else {
    const version = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(PACKAGE_DIR, 'Cargo.toml'), 'utf8'))?.[1] ?? 'unknown'
    // The version results record names the sources too: an engine changed without a new version number is another engine.
    writeManifest(MANIFEST, { ok: true, version: `${version}+${sourceHash()} (${rustc})`, builtAt: new Date().toISOString() })
    progress(`built target/release/dyno-load in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
}

/**
 * Where the harness runs the engine from is target/release/dyno-load of this package. Built into a CARGO_TARGET_DIR of the caller's
 * instead (a cache shared by checkouts on one machine, as `.ci/run` keeps one, so that a fresh clone compiles only what changed),
 * the binary is copied there.
 */
function placeBinary () {
  const targetDir = process.env.CARGO_TARGET_DIR ? resolve(PACKAGE_DIR, process.env.CARGO_TARGET_DIR) : join(PACKAGE_DIR, 'target')
  const built = join(targetDir, 'release', 'dyno-load')
  if (built === BINARY || !existsSync(built)) return
  mkdirSync(dirname(BINARY), { recursive: true })
  copyFileSync(built, BINARY)
}

/** @returns {string} the first 8 hex digits of a hash of what the binary is built from: Cargo.toml, Cargo.lock and src/ */
function sourceHash () {
  const hash = createHash('sha256')
  const files = ['Cargo.toml', 'Cargo.lock', ...readdirSync(join(PACKAGE_DIR, 'src')).sort().map((name) => join('src', name))]
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(PACKAGE_DIR, file))).update('\0')
  return hash.digest('hex').slice(0, 8)
}
