// @ts-check
// Builds a Python SUT's virtual environment (.venv) and writes build/dyno-build.json, the manifest the harness
// reads. Every packages/python-*/scripts/build.js is a call of buildPythonSut; `pnpm install` (prepare) and the
// harness (before first use) run that script. The environment holds exactly the pins of the SUT's
// requirements.txt plus the shared package `dyno_scenarios` (scenarios/python), installed non-editable.
// Idempotent: a stamp of the inputs in three parts decides how much is redone:
// - environment (the Python asked for, the package's path, requirements.txt, this file): a new .venv;
// - shared (scenarios/python): dyno_scenarios reinstalled into the existing .venv (a few seconds);
// - sut (the SUT's src/ and scripts/build.js): the environment checked again and the manifest rewritten.
// Nothing changed: nothing runs, not even a Python (a pyenv shim alone takes most of a second).
// Without a usable Python it writes `{ ok: false, skipReason }` and the outcome is 'skipped', so installing
// never fails for want of Python; a failed pip install shows pip's output and the outcome is 'failed'.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { previousManifest, writeManifest } from './build-manifest.js'

/** This file: part of the stamp, as a change to how SUTs are built rebuilds them. */
const THIS_FILE = fileURLToPath(import.meta.url)
/** The shared Python package (`dyno_scenarios`, distribution `dyno-scenarios`) every Python SUT imports. */
export const SHARED_PYTHON_DIR = join(dirname(THIS_FILE), '..', '..', 'python')
/** Entries that are never sources: caches, build output, editor and tool state. */
const NOT_SOURCES = /^(\..*|__pycache__|build|dist|node_modules|.*\.egg-info|.*\.py[co])$/
/** pip's options for every install: quiet, no prompt, nothing but what is named. */
const PIP_INSTALL = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '--no-deps']

/**
 * @typedef {object} PythonSutBuild
 * @property {string} packageDir the SUT's package directory (holds requirements.txt, src/, scripts/build.js)
 * @property {string} name the SUT's name in progress lines, e.g. `python-flask`
 * @property {string} framework the distribution whose installed version is the SUT's `frameworkVersion`, e.g. `Flask`
 * @property {string[]} components the distributions whose versions the manifest records (the framework among them)
 * @property {[number, number]} minPython the oldest Python every pinned package supports (their `Requires-Python`)
 */

/** @typedef {'built' | 'up-to-date' | 'skipped' | 'failed'} PythonBuildOutcome */

/**
 * @typedef {object} Stamps what the environment was built from, each part hashed
 * @property {string} environment the Python asked for, the package's path (a venv's scripts hold absolute
 *   paths), requirements.txt and this file
 * @property {string} shared scenarios/python
 * @property {string} sut the SUT's src/ and scripts/build.js
 */

/**
 * @param {string} root the directory the paths are relative to
 * @param {string} [dir] where to look, root by default
 * @returns {string[]} every source file under dir, relative to root, sorted
 */
function sourceFiles (root, dir = root) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCES.test(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(root, path)
    return entry.isFile() ? [relative(root, path)] : []
  }).sort()
}

/**
 * @param {string} root @param {string[]} files relative to root
 * @param {string} [prefix] hashed first (what else the part depends on)
 * @returns {string} the files' names and contents, hashed
 */
function hashFiles (root, files, prefix = '') {
  const hash = createHash('sha256').update(`${prefix}\n`)
  for (const file of files) hash.update(`${file}\n`).update(readFileSync(join(root, file))).update('\n')
  return hash.digest('hex')
}

/** @param {string} packageDir @param {string} python @returns {Stamps} */
function currentStamps (packageDir, python) {
  return {
    environment: hashFiles(
      packageDir,
      ['requirements.txt'],
      JSON.stringify({ python, packageDir, builder: readFileSync(THIS_FILE, 'utf8') })
    ),
    shared: hashFiles(SHARED_PYTHON_DIR, sourceFiles(SHARED_PYTHON_DIR)),
    sut: hashFiles(packageDir, ['scripts/build.js', ...sourceFiles(packageDir, join(packageDir, 'src'))])
  }
}

/**
 * Runs a command to completion; its output goes to our stderr (stdout stays clean for whoever runs us).
 * @param {string} command @param {string[]} args @param {string} cwd
 * @returns {boolean} whether it exited 0
 */
function runShown (command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 2, 2] })
  return !result.error && result.status === 0
}

/**
 * @param {string} command @param {string[]} args @param {string} cwd
 * @returns {{ ok: true, stdout: string } | { ok: false, problem: string }}
 */
function capture (command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' })
  if (result.error) return { ok: false, problem: result.error.message }
  if (result.status !== 0) return { ok: false, problem: (result.stderr || result.stdout).trim() || `exit code ${result.status}` }
  return { ok: true, stdout: result.stdout }
}

/**
 * Builds (or brings up to date) the `.venv` of a Python SUT and writes `build/dyno-build.json`:
 * `{ ok: true, frameworkVersion, runtimeVersion, builtAt, stamps, components }`, or `{ ok: false, skipReason }`
 * when no Python new enough, with venv and pip, is there (`DYNO_PYTHON` names one; `python3` by default).
 * Progress goes to stderr.
 * @param {PythonSutBuild} options
 * @returns {PythonBuildOutcome} 'failed' when pip or the check of the environment failed (the output is on stderr)
 */
export function buildPythonSut ({ packageDir: givenDir, name, framework, components, minPython }) {
  const started = performance.now()
  const packageDir = resolve(givenDir)
  const manifestPath = join(packageDir, 'build', 'dyno-build.json')
  const venvDir = join(packageDir, '.venv')
  const venvPython = join(venvDir, 'bin', 'python')
  const python = process.env.DYNO_PYTHON || 'python3'
  const installHint =
    `install Python ≥ ${minPython.join('.')} with venv and pip (Debian/Ubuntu: \`apt-get install python3 python3-venv\`), ` +
    'or point DYNO_PYTHON at one'
  /** @param {string} line */
  const progress = (line) => process.stderr.write(`${name}: ${line}\n`)
  /** @param {string} reason what to install, concretely @returns {PythonBuildOutcome} */
  const skip = (reason) => {
    progress(`skipped: ${reason}`)
    writeManifest(manifestPath, { ok: false, skipReason: reason })
    return 'skipped'
  }
  /** @param {string} message @returns {PythonBuildOutcome} */
  const fail = (message) => {
    progress(`build failed: ${message}`)
    return 'failed'
  }

  const stamps = currentStamps(packageDir, python)
  const previous = previousManifest(manifestPath)
  // A Python removed or upgraded in place leaves .venv/bin/python dangling: a new environment too.
  const usable = previous?.ok === true && existsSync(venvPython)
  const stale = {
    environment: !usable || previous.stamps?.environment !== stamps.environment,
    shared: !usable || previous.stamps?.shared !== stamps.shared,
    sut: !usable || previous.stamps?.sut !== stamps.sut
  }
  if (!stale.environment && !stale.shared && !stale.sut) {
    progress(`up to date (${framework} ${previous?.frameworkVersion}, ${previous?.runtimeVersion})`)
    return 'up-to-date'
  }

  if (stale.environment) {
    const probeScript = 'import json, platform, sys; print(json.dumps({"implementation": platform.python_implementation(), ' +
      '"version": platform.python_version(), "executable": sys.executable}))'
    const probe = capture(python, ['-c', probeScript], packageDir)
    if (!probe.ok) return skip(`\`${python}\` does not run (${probe.problem}): ${installHint}`)
    /** @type {{ implementation: string, version: string, executable: string }} */
    const found = JSON.parse(probe.stdout)
    const runtime = `${found.implementation} ${found.version}`
    const [major, minor] = found.version.split('.').map(Number)
    if (major < minPython[0] || (major === minPython[0] && minor < minPython[1])) {
      return skip(`\`${python}\` is ${runtime}, older than the pinned packages need: ${installHint}`)
    }

    rmSync(manifestPath, { force: true }) // a failed build leaves no manifest that says ok
    progress(`building .venv with ${runtime} (${found.executable}) …`)
    const venv = capture(found.executable, ['-m', 'venv', '--clear', venvDir], packageDir)
    if (!venv.ok) {
      // Debian's python3 without python3-venv: the interpreter runs but cannot make an environment.
      if (/ensurepip|venv/i.test(venv.problem)) {
        return skip(`\`${python} -m venv\` cannot create an environment (${venv.problem.split('\n').slice(-2).join(' ')}): ${installHint}`)
      }
      return fail(`\`${python} -m venv\` failed: ${venv.problem}`)
    }
    progress('installing requirements.txt (pinned, the whole closure) …')
    if (!runShown(venvPython, [...PIP_INSTALL, '--requirement', 'requirements.txt'], packageDir)) {
      return fail('`pip install --requirement requirements.txt` failed; its output is above')
    }
  } else {
    rmSync(manifestPath, { force: true })
    progress(stale.shared ? 'scenarios/python changed: updating .venv …' : 'the SUT\'s sources changed: checking .venv …')
  }

  if (stale.environment || stale.shared) {
    // Non-editable: the environment holds the shared package as it was at this build; the stamp covers
    // scenarios/python, so a change there reinstalls it. pip builds it with the flit_core its pyproject.toml pins.
    progress(`installing dyno_scenarios (${relative(packageDir, SHARED_PYTHON_DIR)}) …`)
    if (!runShown(venvPython, [...PIP_INSTALL, '--force-reinstall', SHARED_PYTHON_DIR], packageDir)) {
      return fail('`pip install scenarios/python` failed; its output is above')
    }
  }

  // --no-deps keeps the environment to exactly the pinned set; pip check proves that set is complete.
  if (!runShown(venvPython, ['-m', 'pip', 'check', '--disable-pip-version-check'], packageDir)) {
    return fail('pip check failed: requirements.txt misses a dependency (above)')
  }
  // -I: the installed dyno_scenarios, never a directory of that name beside the process.
  const inspected = capture(venvPython, ['-I', '-c', [
    'import importlib.metadata as m, json, platform',
    'import dyno_scenarios.data, dyno_scenarios.sut, dyno_scenarios.work',
    'print(json.dumps({"runtime": platform.python_implementation() + " " + platform.python_version(), ' +
    `"components": {name: m.version(name) for name in ${JSON.stringify(components)}}}))`
  ].join('\n')], packageDir)
  if (!inspected.ok) return fail(`the environment does not import dyno_scenarios or lacks a component: ${inspected.problem}`)
  /** @type {{ runtime: string, components: Record<string, string> }} */
  const { runtime, components: versions } = JSON.parse(inspected.stdout)

  writeManifest(manifestPath, {
    ok: true,
    frameworkVersion: versions[framework],
    runtimeVersion: runtime,
    builtAt: new Date().toISOString(),
    stamps,
    components: versions
  })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  progress(
    `built in ${seconds} s (${Object.entries(versions)
      .map(([distribution, version]) => `${distribution} ${version}`)
      .join(', ')}; ${runtime})`
  )
  return 'built'
}
