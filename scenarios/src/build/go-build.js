// @ts-check
// Builds a Go SUT's server (bin/server) and writes build/dyno-build.json, the manifest the harness reads.
// Every packages/go-*/scripts/build.js is a call of buildGoSut; `pnpm install` (prepare) and the harness
// (before first use) run that script. Idempotent: quick when a stamp of the SUT's sources, go.mod, go.sum and
// build script, of the shared Go module (scenarios/go), of this file and of the Go version matches the last
// build. Without a usable Go toolchain or C compiler it writes `{ ok: false, skipReason }` and the outcome is
// 'skipped', so installing never fails for want of Go; a real build error shows the tool's output and the
// outcome is 'failed'.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { accessSync, constants, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { previousManifest, writeManifest } from './build-manifest.js'

/** This file: part of the stamp, as a change to how SUTs are built rebuilds them. */
const THIS_FILE = fileURLToPath(import.meta.url)
/** The shared Go module (`dyno.local/scenarios`) every Go SUT requires through a `replace` to this directory. */
export const SHARED_GO_DIR = join(dirname(THIS_FILE), '..', '..', 'go')
/** Where the official Go archive installs, tried when `go` is not on PATH. */
const USUAL_GO = '/usr/local/go/bin/go'
const GET_GO = 'install Go (https://go.dev/dl/) and put `go` on PATH'
/** Directories that hold no sources of the build. */
const NOT_SOURCES = ['bin', 'build', 'node_modules']
/**
 * GOTOOLCHAIN=local: never download another toolchain, use the installed one or say it is too old.
 * GOFLAGS=-mod=mod: go.mod and go.sum are the lock; modules come from the module proxy, nothing is vendored.
 * CGO_ENABLED=1: mattn/go-sqlite3 compiles SQLite's C source; without cgo it builds a stub that fails at run time.
 */
const GO_ENV = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', CGO_ENABLED: '1' }

/**
 * @typedef {object} GoSutBuild
 * @property {string} packageDir the SUT's package directory (holds go.mod, main.go, scripts/build.js)
 * @property {string} name the SUT's name in progress lines, e.g. `go-gin`
 * @property {string | null} frameworkModule the module whose version is the framework's version
 *   (`github.com/gin-gonic/gin`); null: the framework is Go's standard library, its version Go's
 */

/** @typedef {'built' | 'up-to-date' | 'skipped' | 'failed'} GoBuildOutcome */

/**
 * @param {string} command @param {string[]} args
 * @param {string} cwd where to run it
 * @returns {{ ok: boolean, missing: boolean, stdout: string, stderr: string }}
 */
function run (command, args, cwd) {
  const result = spawnSync(command, args, { cwd, env: GO_ENV, encoding: 'utf8' })
  const missing = /** @type {NodeJS.ErrnoException | undefined} */ (result.error)?.code === 'ENOENT'
  return { ok: !result.error && result.status === 0, missing, stdout: result.stdout ?? '', stderr: result.stderr ?? '' }
}

/** @param {string} name @returns {boolean} whether an executable of that name (or path) exists */
function onPath (name) {
  const candidates = isAbsolute(name) ? [name] : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name))
  return candidates.some((candidate) => {
    try {
      accessSync(candidate, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/** @param {string} version e.g. `go1.26.8`, `1.26.0`, `go1.26rc1` @returns {number[]} [major, minor, patch] */
function versionParts (version) {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(version)
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : [0, 0, 0]
}

/** @param {number[]} a @param {number[]} b */
function olderThan (a, b) {
  for (let index = 0; index < 3; index++) if (a[index] !== b[index]) return a[index] < b[index]
  return false
}

/** @param {string} dir @returns {string} the `go` line of dir/go.mod, `0` when it has none */
function requiredGo (dir) {
  return /^go\s+(\S+)/m.exec(readFileSync(join(dir, 'go.mod'), 'utf8'))?.[1] ?? '0'
}

/**
 * @param {string} root the directory the paths are relative to
 * @param {string} [dir] where to look, root by default
 * @returns {string[]} the Go sources under dir, relative to root, sorted
 */
function goSources (root, dir = root) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return NOT_SOURCES.includes(entry.name) ? [] : goSources(root, path)
    return entry.name.endsWith('.go') ? [relative(root, path)] : []
  }).sort()
}

/**
 * @param {string} packageDir @param {string} goVersion
 * @returns {string} what the build depends on, hashed: the SUT's module, the shared module, the build scripts
 */
function sourceStamp (packageDir, goVersion) {
  const hash = createHash('sha256').update(`${goVersion}\n`)
  /** @type {Array<[label: string, dir: string, files: string[]]>} */
  const parts = [
    ['sut', packageDir, ['go.mod', 'go.sum', 'scripts/build.js', ...goSources(packageDir)]],
    [
      'scenarios/go',
      SHARED_GO_DIR,
      ['go.mod', ...(existsSync(join(SHARED_GO_DIR, 'go.sum')) ? ['go.sum'] : []), ...goSources(SHARED_GO_DIR)]
    ],
    ['scenarios/src/build', dirname(THIS_FILE), [relative(dirname(THIS_FILE), THIS_FILE)]]
  ]
  for (const [label, dir, files] of parts) {
    for (const file of files) hash.update(`${label}/${file}\n`).update(readFileSync(join(dir, file))).update('\n')
  }
  return hash.digest('hex')
}

/**
 * Builds `bin/server` of a Go SUT with `go build -trimpath` and writes `build/dyno-build.json`:
 * `{ ok: true, frameworkVersion, runtimeVersion, builtAt, stamp }`, or `{ ok: false, skipReason }` when Go
 * (new enough for the go.mod files) or a C compiler for cgo is missing. Progress goes to stderr.
 * @param {GoSutBuild} options
 * @returns {GoBuildOutcome} 'failed' when `go build` or `go list` failed (its output is on stderr)
 */
export function buildGoSut ({ packageDir, name, frameworkModule }) {
  const manifestPath = join(packageDir, 'build', 'dyno-build.json')
  const binaryPath = join(packageDir, 'bin', 'server')
  /** @param {string} line */
  const progress = (line) => process.stderr.write(`${name}: ${line}\n`)
  /** @param {string} reason what to install, concretely @returns {GoBuildOutcome} */
  const skip = (reason) => {
    progress(`skipped: ${reason}`)
    writeManifest(manifestPath, { ok: false, skipReason: reason })
    return 'skipped'
  }

  // Asked outside the module: inside it, a go.mod newer than the toolchain fails every go command.
  let go = 'go'
  let probe = run(go, ['env', 'GOVERSION', 'CC'], tmpdir())
  if (probe.missing && existsSync(USUAL_GO)) {
    go = USUAL_GO
    probe = run(go, ['env', 'GOVERSION', 'CC'], tmpdir())
  }
  if (probe.missing) return skip(`the Go toolchain is not installed: ${GET_GO}`)
  if (!probe.ok) return skip(`\`go env\` failed (${probe.stderr.trim()}): ${GET_GO}`)
  const [goVersion, cc] = probe.stdout.trim().split('\n')

  for (const [dir, whose] of [[packageDir, 'go.mod'], [SHARED_GO_DIR, 'scenarios/go/go.mod']]) {
    const required = requiredGo(dir)
    if (olderThan(versionParts(goVersion), versionParts(required))) {
      return skip(
        `${goVersion} is older than the go ${required} that ${whose} requires (for its dependencies): install Go ${required} or newer (https://go.dev/dl/)`
      )
    }
  }
  const compiler = (cc ?? '').split(/\s+/)[0] || 'gcc'
  if (!onPath(compiler)) {
    return skip(
      `no C compiler (\`${compiler}\`) for cgo, which mattn/go-sqlite3 needs to compile SQLite: install one (apt-get install gcc)`
    )
  }

  const stamp = sourceStamp(packageDir, goVersion)
  const previous = previousManifest(manifestPath)
  if (previous?.ok === true && previous.stamp === stamp && existsSync(binaryPath)) {
    progress(`up to date (${goVersion}, ${previous.frameworkVersion ? `framework ${previous.frameworkVersion}` : 'built before'})`)
    return 'up-to-date'
  }

  rmSync(manifestPath, { force: true }) // a failed build leaves no manifest that says ok
  progress(`building with ${goVersion} (the first build on a machine also compiles SQLite's C source for cgo: minutes)…`)
  const started = Date.now()
  const build = spawnSync(go, ['build', '-trimpath', '-o', 'bin/server', '.'], { cwd: packageDir, env: GO_ENV, stdio: ['ignore', 2, 2] })
  if (build.error || build.status !== 0) {
    progress(`\`go build\` failed (${build.error?.message ?? `exit code ${build.status}`})`)
    return 'failed'
  }

  let frameworkVersion = goVersion.replace(/^go/, '')
  if (frameworkModule) {
    const listed = run(go, ['list', '-m', '-f', '{{.Version}}', frameworkModule], packageDir)
    if (!listed.ok) {
      progress(`\`go list -m ${frameworkModule}\` failed: ${listed.stderr.trim()}`)
      return 'failed'
    }
    frameworkVersion = listed.stdout.trim().replace(/^v/, '')
  }
  writeManifest(manifestPath, { ok: true, frameworkVersion, runtimeVersion: goVersion, builtAt: new Date().toISOString(), stamp })
  progress(`built bin/server in ${((Date.now() - started) / 1000).toFixed(1)} s (framework ${frameworkVersion}, ${goVersion})`)
  return 'built'
}
