// @ts-check
// Builds the Go SUT's server (bin/server) and writes build/dyno-build.json, the manifest the harness reads.
// Run by `pnpm install` (prepare) and by the harness before first use. Idempotent: quick when a stamp of
// the sources, go.mod, go.sum, this script and the Go version matches the last build. Without a usable Go
// toolchain or C compiler it writes `{ ok: false, skipReason }` and exits 0, so installing never fails for
// want of Go; a real build error exits non-zero with the tool's output.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The SUT's name in progress lines. */
const NAME = 'go-nethttp'
/** The module whose version is the framework's; null: the framework is Go's standard library. */
const FRAMEWORK_MODULE = null

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')
const MANIFEST_PATH = join(PACKAGE_DIR, 'build', 'dyno-build.json')
const BINARY_PATH = join(PACKAGE_DIR, 'bin', 'server')
/** Where the official Go archive installs, tried when `go` is not on PATH. */
const USUAL_GO = '/usr/local/go/bin/go'
const GET_GO = 'install Go (https://go.dev/dl/) and put `go` on PATH'
/**
 * GOTOOLCHAIN=local: never download another toolchain, use the installed one or say it is too old.
 * GOFLAGS=-mod=mod: go.mod and go.sum are the lock; modules come from the module proxy, nothing is vendored.
 * CGO_ENABLED=1: mattn/go-sqlite3 compiles SQLite's C source; without cgo it builds a stub that fails at run time.
 */
const GO_ENV = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', CGO_ENABLED: '1' }

/** @param {string} line */
const progress = (line) => process.stderr.write(`${NAME}: ${line}\n`)

/** @param {Record<string, unknown>} manifest */
function writeManifest (manifest) {
  mkdirSync(dirname(MANIFEST_PATH), { recursive: true })
  const temporary = `${MANIFEST_PATH}.tmp`
  writeFileSync(temporary, JSON.stringify(manifest, null, 2) + '\n')
  renameSync(temporary, MANIFEST_PATH)
}

/** @param {string} reason what to install, concretely */
function skip (reason) {
  progress(`skipped: ${reason}`)
  writeManifest({ ok: false, skipReason: reason })
}

/**
 * @param {string} command @param {string[]} args
 * @param {string} [cwd] where to run it
 * @returns {{ ok: boolean, missing: boolean, stdout: string, stderr: string }}
 */
function run (command, args, cwd = PACKAGE_DIR) {
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

/** @param {string} dir @returns {string[]} the Go sources under dir, relative to the package, sorted */
function goSources (dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return ['bin', 'build', 'node_modules'].includes(entry.name) ? [] : goSources(path)
    return entry.name.endsWith('.go') ? [relative(PACKAGE_DIR, path)] : []
  }).sort()
}

/** @param {string} goVersion @returns {string} what the build depends on, hashed */
function sourceStamp (goVersion) {
  const hash = createHash('sha256').update(`${goVersion}\n`)
  for (const file of ['go.mod', 'go.sum', 'scripts/build.js', ...goSources(PACKAGE_DIR)]) {
    hash.update(`${file}\n`).update(readFileSync(join(PACKAGE_DIR, file))).update('\n')
  }
  return hash.digest('hex')
}

/** @returns {Record<string, unknown> | null} */
function previousManifest () {
  try {
    return JSON.parse(readFileSync(MANIFEST_PATH, 'utf8'))
  } catch {
    return null
  }
}

function main () {
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

  const required = /^go\s+(\S+)/m.exec(readFileSync(join(PACKAGE_DIR, 'go.mod'), 'utf8'))?.[1] ?? '0'
  if (olderThan(versionParts(goVersion), versionParts(required))) {
    return skip(`${goVersion} is older than the go ${required} that go.mod requires (for its dependencies): install Go ${required} or newer (https://go.dev/dl/)`)
  }
  const compiler = (cc ?? '').split(/\s+/)[0] || 'gcc'
  if (!onPath(compiler)) {
    return skip(`no C compiler (\`${compiler}\`) for cgo, which mattn/go-sqlite3 needs to compile SQLite: install one (apt-get install gcc)`)
  }

  const stamp = sourceStamp(goVersion)
  const previous = previousManifest()
  if (previous?.ok === true && previous.stamp === stamp && existsSync(BINARY_PATH)) {
    progress(`up to date (${goVersion}, ${previous.frameworkVersion ? `framework ${previous.frameworkVersion}` : 'built before'})`)
    return
  }

  rmSync(MANIFEST_PATH, { force: true }) // a failed build leaves no manifest that says ok
  progress(`building with ${goVersion} (the first build on a machine also compiles SQLite's C source for cgo: minutes)…`)
  const started = Date.now()
  const build = spawnSync(go, ['build', '-trimpath', '-o', 'bin/server', '.'], { cwd: PACKAGE_DIR, env: GO_ENV, stdio: ['ignore', 2, 2] })
  if (build.error || build.status !== 0) {
    progress(`\`go build\` failed (${build.error?.message ?? `exit code ${build.status}`})`)
    process.exitCode = 1
    return
  }

  let frameworkVersion = goVersion.replace(/^go/, '')
  if (FRAMEWORK_MODULE) {
    const listed = run(go, ['list', '-m', '-f', '{{.Version}}', FRAMEWORK_MODULE])
    if (!listed.ok) {
      progress(`\`go list -m ${FRAMEWORK_MODULE}\` failed: ${listed.stderr.trim()}`)
      process.exitCode = 1
      return
    }
    frameworkVersion = listed.stdout.trim().replace(/^v/, '')
  }
  writeManifest({ ok: true, frameworkVersion, runtimeVersion: goVersion, builtAt: new Date().toISOString(), stamp })
  progress(`built bin/server in ${((Date.now() - started) / 1000).toFixed(1)} s (framework ${frameworkVersion}, ${goVersion})`)
}

main()
