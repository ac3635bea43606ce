// @ts-check
// The cpu every count is made for, whatever cpu makes it. glibc picks its string and memory routines by the cpu's extensions
// (AVX2 memcpy, strlen, memchr …) and V8 and Go compile and copy with AVX, BMI, LZCNT and FMA where the cpu has them, so the
// same SUT counts other instructions on another runner. Under callgrind a program never sees the host's own cpuid: valgrind
// answers from one of five fixed tables chosen by what the host has (VEX guest_amd64_toIR.c, valgrind 3.19): a Haswell for hosts
// with AVX2, a Sandy Bridge for AVX without AVX2, a Westmere for SSSE3, CX16 and RDTSCP, a Core 2 below that, an SSE2 Opteron
// last. An AMD EPYC with AVX-512 shows its programs the Haswell (family 6 model 0x3c, AVX2, no AVX-512) and that table's cache
// sizes (`valgrind ld.so --list-diagnostics`). Two runners' counts can therefore differ only where they fall into different
// tables, by what the upper tables add to the Westmere's, whose extensions are x86-64-v2's (SSE3, SSSE3, SSE4.1, SSE4.2,
// POPCNT, CX16, LAHF). Every Intel cpu since Nehalem (2008) and AMD cpu since Bulldozer (2011), every cloud and CI runner,
// falls into the Westmere's table or above, so the baseline is x86-64-v2: it hides from the SUT what lies above. It matters:
// a copy of 64 KiB counted three times as much on the Haswell table as on a cpu without AVX2 (harness/bench/count-cpu-baseline.js,
// docs/measuring.md). v1 would also hide SSE3 to POPCNT, which only the Core 2 and Opteron tables lack: it would bring in no
// runner worth benchmarking on (node-http json counted the same under v1's masks as under v2's, one count each), and would
// count string routines that no machine a benchmark runs on executes.
// Hidden through every switch there is: glibc's tunables (every runtime: Node, Bun, Deno, Python and cgo all load glibc; its
// cache sizes too, which decide where a large copy turns to non-temporal stores and differ between the tables), V8's
// `--no-enable-*` flags (Node; Deno through DENO_V8_FLAGS) and Go's GODEBUG `cpu.*=off`. Code that asks the cpu itself and
// has no switch is out of reach: Node's simdutf (Haswell or Westmere kernels), Bun's JavaScriptCore. AVX-512, FSRM and SHA
// are not listed: none of valgrind's tables has them. Each count records the baseline's name in its settings and the flags
// of this cpu that the baseline hides (`cpu.maskedFlags`); counts of different baselines are neither merged nor compared.
import { readFileSync } from 'node:fs'

/**
 * @typedef {object} MaskedExtension an extension above the baseline, by the name each layer knows it by
 * @property {string} cpuinfo its flag in /proc/cpuinfo
 * @property {string[]} glibc its names in glibc.cpu.hwcaps (2.36), and the preference glibc derives from it
 * @property {string | null} v8 V8's `--enable-<name>` flag
 * @property {string | null} go Go's GODEBUG `cpu.<name>` (x/sys/cpu knows no lzcnt or movbe)
 */

/** @type {readonly MaskedExtension[]} */
const ABOVE_THE_BASELINE = Object.freeze([
  { cpuinfo: 'avx', glibc: ['AVX'], v8: 'avx', go: 'avx' },
  // glibc sets AVX_Fast_Unaligned_Load from AVX2 before it reads the tunables: masking AVX2 alone leaves it set.
  { cpuinfo: 'avx2', glibc: ['AVX2', 'AVX_Fast_Unaligned_Load'], v8: 'avx2', go: 'avx2' },
  { cpuinfo: 'fma', glibc: ['FMA'], v8: 'fma3', go: 'fma' },
  { cpuinfo: 'bmi1', glibc: ['BMI1'], v8: 'bmi1', go: 'bmi1' },
  { cpuinfo: 'bmi2', glibc: ['BMI2'], v8: 'bmi2', go: 'bmi2' },
  { cpuinfo: 'abm', glibc: ['LZCNT'], v8: 'lzcnt', go: null },
  { cpuinfo: 'movbe', glibc: ['MOVBE'], v8: null, go: null },
  // Not a level's, but only valgrind's Haswell table has it: glibc's memcpy and memset then copy with `rep movsb`.
  { cpuinfo: 'erms', glibc: ['ERMS'], v8: null, go: 'erms' }
].map((extension) => Object.freeze(extension)))

/**
 * glibc's cache sizes, fixed: those valgrind's Haswell table gives here (32 KiB, 8 MiB, and the non-temporal threshold glibc
 * derives from them), so that the tables' other sizes, and another glibc's way of deriving the threshold, change nothing.
 */
const GLIBC_CACHE_TUNABLES = Object.freeze({
  'glibc.cpu.x86_data_cache_size': '0x8000',
  'glibc.cpu.x86_shared_cache_size': '0x800000',
  'glibc.cpu.x86_non_temporal_threshold': '0x200000'
})

/**
 * The baseline: its name (a new name whenever what it hides changes, so that counts of two versions are never put side by
 * side), the level it stands for, and its settings per layer.
 */
export const CPU_BASELINE = Object.freeze({
  name: 'x86-64-baseline-1',
  level: 'x86-64-v2',
  /** GLIBC_TUNABLES entries, name → value */
  glibcTunables: Object.freeze({
    'glibc.cpu.hwcaps': ABOVE_THE_BASELINE.flatMap((extension) => extension.glibc).map((name) => `-${name}`).join(','),
    ...GLIBC_CACHE_TUNABLES
  }),
  v8Flags: Object.freeze(ABOVE_THE_BASELINE.flatMap((extension) => extension.v8 ? [`--no-enable-${extension.v8}`] : [])),
  goDebug: ABOVE_THE_BASELINE.flatMap((extension) => extension.go ? [`cpu.${extension.go}=off`] : []).join(',')
})

const HWCAPS = 'glibc.cpu.hwcaps'

/**
 * GLIBC_TUNABLES of a count: the baseline's entries after those of `inherited` (the variable as the user set it). glibc takes the
 * last value of a tunable given twice, so the user's glibc.cpu.hwcaps is put before the baseline's in one list (the baseline's
 * masks hold whatever it says), and the user's cache sizes give way to the baseline's; the rest is kept as it is.
 * @param {string | undefined} inherited
 * @returns {{ value: string, replaced: string[] }} replaced: the user's entries the baseline's took the place of
 */
export function countTunables (inherited) {
  /** @type {string[]} */
  const kept = []
  /** @type {string[]} */
  const replaced = []
  /** @type {string[]} */
  const hwcaps = []
  for (const entry of (inherited ?? '').split(':').filter((given) => given.trim() !== '')) {
    const [name, ...value] = entry.split('=')
    if (name === HWCAPS) hwcaps.push(...value.join('=').split(',').filter(Boolean))
    else if (name in CPU_BASELINE.glibcTunables) replaced.push(entry)
    else kept.push(entry)
  }
  const own = Object.entries(CPU_BASELINE.glibcTunables).map(
    ([name, value]) => `${name}=${name === HWCAPS ? [...hwcaps, value].join(',') : value}`
  )
  return { value: [...kept, ...own].join(':'), replaced }
}

/**
 * What a user's GLIBC_TUNABLES does to a count, in one line, or null when it is not set.
 * @param {string | undefined} inherited
 * @returns {string | null}
 */
export function inheritedTunablesNote (inherited) {
  if (!inherited) return null
  const { replaced } = countTunables(inherited)
  return `GLIBC_TUNABLES is set (${inherited}): counts keep it, with the cpu baseline ${CPU_BASELINE.name}'s tunables after it` +
    `${replaced.length ? ` in place of ${replaced.join(', ')}` : ''}; each count records it in its settings, and counts made with other ` +
    'settings are not compared'
}

/**
 * Runtime settings with the baseline added for a runtime: its glibc tunables for every runtime, V8's flags for Node (before
 * the start file) and Deno (DENO_V8_FLAGS), Go's GODEBUG after the settings' own.
 * @param {{ nodeFlags: string[], env: Record<string, string> }} settings a runtime's own settings for a count
 * @param {string} kind the runtime's kind: node, deno, bun, go, python
 * @param {string | undefined} inheritedTunables GLIBC_TUNABLES as the user set it (countTunables)
 * @returns {{ nodeFlags: string[], env: Record<string, string>, cpuBaseline: string }}
 */
export function withCpuBaseline (settings, kind, inheritedTunables) {
  /** @type {Record<string, string>} */
  const env = { ...settings.env, GLIBC_TUNABLES: countTunables(inheritedTunables).value }
  if (kind === 'deno') env.DENO_V8_FLAGS = CPU_BASELINE.v8Flags.join(',')
  if (kind === 'go') env.GODEBUG = [settings.env.GODEBUG, CPU_BASELINE.goDebug].filter(Boolean).join(',')
  return { nodeFlags: [...settings.nodeFlags, ...(kind === 'node' ? CPU_BASELINE.v8Flags : [])], env, cpuBaseline: CPU_BASELINE.name }
}

/** @type {string[] | null | undefined} */
let maskedHere

/**
 * The flags of this machine's cpu that the baseline hides, in /proc/cpuinfo's names: what its counts would use without it.
 * @param {string} [cpuinfo] the text of /proc/cpuinfo (this machine's, read once, unless given)
 * @returns {string[] | null} null when /proc/cpuinfo cannot be read
 */
export function maskedCpuFlags (cpuinfo) {
  if (cpuinfo === undefined) {
    if (maskedHere !== undefined) return maskedHere
    try {
      maskedHere = maskedCpuFlags(readFileSync('/proc/cpuinfo', 'utf8'))
    } catch {
      maskedHere = null
    }
    return maskedHere
  }
  const flags = new Set(/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1].trim().split(/\s+/) ?? [])
  return ABOVE_THE_BASELINE.map((extension) => extension.cpuinfo).filter((flag) => flags.has(flag))
}
