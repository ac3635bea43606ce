// @ts-check
// Builds this SUT's Python virtual environment: `.venv` with every package of requirements.txt at its
// pinned version. Idempotent: a stamp of the inputs (requirements.txt, the Python, this directory) in the
// manifest makes a re-run instant. Without a usable Python it writes a skip manifest and exits 0, so
// `pnpm install` passes on a machine without Python; a failed install exits non-zero with pip's output.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const NAME = 'python-fastapi'
/** The distribution whose installed version is the SUT's `frameworkVersion`, and the other ones worth naming. */
const FRAMEWORK = 'fastapi'
const COMPONENTS = ['fastapi', 'starlette', 'pydantic', 'uvicorn', 'uvloop', 'httptools', 'redis', 'asyncpg']
/** The oldest Python every pinned package supports (their `Requires-Python`). */
const MIN_PYTHON = [3, 11]
/** Bump when the way the environment is built changes, so existing ones are rebuilt. */
const BUILD_FORMAT = 1

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)))
const venvDir = join(packageDir, '.venv')
const venvPython = join(venvDir, 'bin', 'python')
const requirementsFile = join(packageDir, 'requirements.txt')
const manifestFile = join(packageDir, 'build', 'dyno-build.json')
const python = process.env.DYNO_PYTHON || 'python3'
const INSTALL_HINT = `install Python ≥ ${MIN_PYTHON.join('.')} with venv and pip (Debian/Ubuntu: \`apt-get install python3 python3-venv\`), or point DYNO_PYTHON at one`

/** @param {string} line */
const progress = (line) => process.stderr.write(`${NAME}: ${line}\n`)

/** @param {Record<string, unknown>} manifest */
function writeManifest (manifest) {
  mkdirSync(dirname(manifestFile), { recursive: true })
  writeFileSync(`${manifestFile}.tmp`, JSON.stringify(manifest, null, 2) + '\n')
  renameSync(`${manifestFile}.tmp`, manifestFile)
}

/** @param {string} reason */
function skip (reason) {
  progress(`skipped: ${reason}`)
  writeManifest({ ok: false, skipReason: reason })
}

/** A real build error: said on stderr, and a non-zero exit code. @param {string} message */
function fail (message) {
  progress(`build failed: ${message}`)
  process.exitCode = 1
}

/** @returns {Record<string, unknown> | null} */
function readManifest () {
  try {
    return JSON.parse(readFileSync(manifestFile, 'utf8'))
  } catch {
    return null
  }
}

/**
 * Runs a command to completion; its output goes to our stderr (stdout stays clean for whoever runs us).
 * @param {string} command @param {string[]} args
 */
function run (command, args) {
  return spawnSync(command, args, { cwd: packageDir, stdio: ['ignore', 2, 2] })
}

/**
 * @param {string} command @param {string[]} args
 * @returns {{ ok: true, stdout: string } | { ok: false, problem: string }}
 */
function capture (command, args) {
  const result = spawnSync(command, args, { cwd: packageDir, encoding: 'utf8' })
  if (result.error) return { ok: false, problem: result.error.message }
  if (result.status !== 0) return { ok: false, problem: (result.stderr || result.stdout).trim() || `exit code ${result.status}` }
  return { ok: true, stdout: result.stdout }
}

/** @returns {{ implementation: string, version: string, executable: string } | { problem: string }} */
function inspectPython () {
  const probe = capture(python, ['-c', 'import json, platform, sys; print(json.dumps({"implementation": platform.python_implementation(), "version": platform.python_version(), "executable": sys.executable}))'])
  if (!probe.ok) return { problem: `\`${python}\` does not run (${probe.problem})` }
  return JSON.parse(probe.stdout)
}

function main () {
  const started = performance.now()
  // The stamp needs no Python process (a pyenv shim alone takes most of a second): which Python was asked
  // for, where this package is (a venv's scripts hold absolute paths) and the pins. A Python removed or
  // upgraded in place leaves .venv/bin/python dangling, which rebuilds too.
  const inputHash = createHash('sha256')
    .update(JSON.stringify({ BUILD_FORMAT, python, packageDir, requirements: readFileSync(requirementsFile, 'utf8') }))
    .digest('hex')
  const previous = readManifest()
  if (previous?.ok === true && previous.inputHash === inputHash && existsSync(venvPython)) {
    progress(`up to date (${FRAMEWORK} ${previous.frameworkVersion}, ${previous.runtimeVersion})`)
    return
  }

  const found = inspectPython()
  if ('problem' in found) return skip(`${found.problem}: ${INSTALL_HINT}`)
  const runtimeVersion = `${found.implementation} ${found.version}`
  const [major, minor] = found.version.split('.').map(Number)
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    return skip(`\`${python}\` is ${runtimeVersion}, older than the pinned packages need: ${INSTALL_HINT}`)
  }

  rmSync(manifestFile, { force: true })
  progress(`building .venv with ${runtimeVersion} (${found.executable}) …`)
  const venv = capture(found.executable, ['-m', 'venv', '--clear', venvDir])
  if (!venv.ok) {
    // Debian's python3 without python3-venv: the interpreter runs but cannot make an environment.
    if (/ensurepip|venv/i.test(venv.problem)) return skip(`\`${python} -m venv\` cannot create an environment (${venv.problem.split('\n').slice(-2).join(' ')}): ${INSTALL_HINT}`)
    return fail(`\`${python} -m venv\` failed: ${venv.problem}`)
  }

  progress('installing requirements.txt (pinned, the whole closure) …')
  const install = run(venvPython, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '--no-deps', '--requirement', requirementsFile])
  if (install.status !== 0) return fail(`pip install failed (exit code ${install.status ?? install.signal}); its output is above`)
  // --no-deps keeps the environment to exactly the pinned set; pip check proves that set is complete.
  const check = run(venvPython, ['-m', 'pip', 'check', '--disable-pip-version-check'])
  if (check.status !== 0) return fail('pip check failed: requirements.txt misses a dependency (above)')

  const versions = capture(venvPython, ['-c', `import importlib.metadata as m, json; print(json.dumps({name: m.version(name) for name in ${JSON.stringify(COMPONENTS)}}))`])
  if (!versions.ok) return fail(`cannot read the installed versions: ${versions.problem}`)
  /** @type {Record<string, string>} */
  const components = JSON.parse(versions.stdout)
  writeManifest({ ok: true, frameworkVersion: components[FRAMEWORK], runtimeVersion, builtAt: new Date().toISOString(), inputHash, components })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  progress(`built in ${seconds} s (${Object.entries(components).map(([name, version]) => `${name} ${version}`).join(', ')})`)
}

main()
