// @ts-check
// An instruction count depends on exactly what runs and how it is driven: the harness code a count runs (the count's module
// and every module it imports, not the reports or the load engines), the SUT's own sources, the shared work of the
// scenarios, the installed packages (the lockfile), the runtime, the count's settings and its cpu baseline, the cpu flags
// the baseline hides, the scenario and valgrind.
// When none of these differs, counting again gives the same windows up to their noise, so a count is kept under a hash of
// exactly these and reused (compare-commits: the SUTs a change does not touch are counted once for both commits). A cached
// entry that is corrupt or was written by another dyno is ignored with one line saying so, and counted again.
import { fileHash, treeHash } from '../../../platform/util/content-hash.js'
import { countingCodeHash } from './counting-code.js'
import { findStrace } from './count-syscalls.js'
import { maskedCpuFlags } from './cpu-baseline.js'
import { NO_CPU_BASELINE } from '../../../records/count-baseline.js'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { HARNESS_DIR, REPO_ROOT } from '../../../platform/paths.js'
import { writeJsonAtomic } from '../../../records/write-json-atomic.js'
import { sealHolds, sealOf } from '../../../platform/util/cache-seal.js'
import { makeDirectory } from '../../../platform/util/checked-paths.js'

const HARNESS_VERSION = JSON.parse(readFileSync(join(HARNESS_DIR, 'package.json'), 'utf8')).version
/** Entries never part of what runs: installed packages, build output, environments, caches, tests, prose. */
const NOT_SOURCES = /^(node_modules|\.venv|venv|bin|build|dist|target|test|\.turbo|\.git|__pycache__|.*\.md|.*\.tsbuildinfo)$/

/** @type {Map<string, string>} a directory's hash, computed once per process */
const treeHashes = new Map()

/**
 * The hash of the source files below `dir` (util/content-hash.js), once per process.
 * @param {string} dir
 */
function sourceTreeHash (dir) {
  const known = treeHashes.get(dir)
  if (known) return known
  const digest = treeHash(dir, (name) => NOT_SOURCES.test(name))
  treeHashes.set(dir, digest)
  return digest
}

/** @type {string | undefined} */
let valgrindVersion

/** @param {string} valgrind @returns {string} `valgrind --version`, asked once */
function valgrindVersionOf (valgrind) {
  valgrindVersion ??= execFileSync(valgrind, ['--version'], { encoding: 'utf8' }).trim()
  return valgrindVersion
}

/**
 * What a count depends on, each part hashed, and the key of the whole.
 * @param {{ sut: import('../../../subjects/suts/resolve-subjects.js').Subject, scenario: import('@dyno/scenarios').Scenario, valgrind:
 *   string, count: { warmupRequests: number, warmupBoundRequests?: number, warmupRule?: string, windowRequests: number, windows: number,
 *     concurrency: number,
 *     settings: import('./count-instructions.js').CountSettings } }} what
 * @returns {{ key: string, inputs: Record<string, string> }}
 */
export function countKey ({ sut, scenario, valgrind, count }) {
  const inputs = {
    dyno: HARNESS_VERSION,
    harness: countingCodeHash(),
    sut: sourceTreeHash(sut.dir),
    // A variant's copy lives in a directory named after everything it was made from (a checkout's files included): two copies of
    // one SUT package that differ only in their installed framework are told apart by it.
    variant: sut.variant ? `${sut.variant.label} ${sut.dir}` : '',
    scenarios: sourceTreeHash(join(REPO_ROOT, 'scenarios')),
    lockfile: fileHash(join(REPO_ROOT, 'pnpm-lock.yaml')),
    runtime: `${sut.runtime.name} ${sut.runtime.kind} ${sut.runtime.version ?? 'unknown'}; workers ${sut.workers}`,
    count: JSON.stringify(count),
    // Named apart, though the settings hold it: an entry made with another baseline, or none, is never used. And the flags of
    // this cpu that the baseline hides, since a cache directory may travel to another runner (a CI cache): code that asks the
    // cpu itself (cpu-baseline.js) may count otherwise there.
    cpuBaseline: count.settings.cpuBaseline ?? NO_CPU_BASELINE,
    cpu: maskedCpuFlags()?.join(' ') ?? 'unknown',
    scenario: JSON.stringify({ name: scenario.name, request: scenario.request, expect: scenario.expect }),
    valgrind: valgrindVersionOf(valgrind),
    // A count made without strace has no system calls: one made with it is another count.
    syscalls: findStrace() ? 'strace' : 'none'
  }
  return { key: createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 32), inputs }
}

/**
 * @typedef {object} CachedCount
 * @property {string} dyno the version that wrote it
 * @property {string} key
 * @property {Record<string, string>} inputs
 * @property {string} runId the run that counted it
 * @property {string} countedAt
 * @property {import('./count-instructions.js').InstructionCount} instructions
 */

/** @param {string} dir the cache directory @param {string} key */
const entryPath = (dir, key) => join(dir, 'counts', `${key}.json`)

/**
 * @param {string} dir @param {string} key
 * @param {(line: string) => void} note says in one line why an entry there is not used
 * @returns {CachedCount | null}
 */
export function readCachedCount (dir, key, note) {
  const file = entryPath(dir, key)
  let entry
  try {
    entry = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    if (code !== 'ENOENT') note(`the cached count ${file} is not readable JSON (${code ?? 'corrupt'}): ignored, counted again`)
    return null
  }
  const { seal, ...content } = entry ?? {}
  if (!sealHolds(dir, content, seal)) {
    note(`the cached count ${file} was not written by dyno with this cache directory (its seal does not hold): ignored, counted again`)
    return null
  }
  if (entry?.dyno !== HARNESS_VERSION) {
    note(`the cached count ${file} was written by dyno ${entry?.dyno ?? '(unknown)'}, this is ${HARNESS_VERSION}: ignored, counted again`)
    return null
  }
  const windows = entry.instructions?.windows
  if (
    entry.key !== key ||
    !Array.isArray(windows) ||
    windows.length === 0 ||
    !windows.every((window) => Number.isFinite(window?.instructionsPerRequest))
  ) {
    note(`the cached count ${file} is not a count of this key: ignored, counted again`)
    return null
  }
  return entry
}

/**
 * @param {string} dir @param {string} key @param {Omit<CachedCount, 'dyno' | 'key'>} entry
 */
export function storeCount (dir, key, entry) {
  makeDirectory(join(dir, 'counts'))
  const content = { dyno: HARNESS_VERSION, key, ...entry }
  writeJsonAtomic(entryPath(dir, key), { ...content, seal: sealOf(dir, content) })
}
