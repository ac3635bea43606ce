// @ts-check
// Does the cpu that makes a count change it, and does dyno's cpu baseline (src/counts/cpu-baseline.js) take that away?
// One machine cannot be two cpus, but it can hide from a SUT what another cpu lacks: a runner that valgrind shows its Sandy
// Bridge table (AVX, but no AVX2, BMI1, BMI2, LZCNT, FMA, MOVBE or ERMS) is modelled here, in this script's own spelling, through
// GLIBC_TUNABLES and V8's flags. Per target four arms, LAUNCHES counts each, the arms alternating, one count per cpu at once:
//   (a) dyno's settings: the runtime's own and the baseline (countSettingsFor);
//   (b) dyno's settings on the modelled cpu: its masks given as a user's GLIBC_TUNABLES and V8 flags, the baseline's after them;
//   (c) the runtime's own settings, without the baseline;
//   (d) the same on the modelled cpu.
// Without the baseline, (c) and (d) differ by what the missing extensions change; with it, (a) and (b) must agree, or the
// baseline leaves something the modelled cpu lacks in reach of the SUT. Targets: node-http × json, and the copy-work fixture,
// which copies 64 KiB four times a request as a server that sends a file does.
//   node harness/bench/count-cpu-baseline.js [--launches 2]
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { max, median, min } from 'simple-statistics'
import {
  countSettingsFor,
  INSTRUCTION_COUNT_DEFAULTS,
  NODE_COUNT_SETTINGS
} from '../src/measures/instructions/counts/count-instructions.js'
import { countTunables, CPU_BASELINE, maskedCpuFlags, withCpuBaseline } from '../src/measures/instructions/counts/cpu-baseline.js'
import { DEFAULT_RUNTIME } from '../src/subjects/runtimes/runtime-targets.js'
import { loadSut } from '../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../src/subjects/suts/resolve-subjects.js'
import { mapLimit } from '../src/platform/util/map-limit.js'
import { benchSuts, countOnce, scenarioNamed } from './support/bench-counts.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({ options: { launches: { type: 'string', default: '2' } } })
const launches = Number(values.launches)
if (process.env.GLIBC_TUNABLES) {
  throw new Error(`GLIBC_TUNABLES is set (${process.env.GLIBC_TUNABLES}): unset it, the arms set it themselves`)
}

/** What a cpu in valgrind's Sandy Bridge table lacks of its Haswell table, as glibc 2.36 and V8 are told. */
const WITHOUT_AVX2 = Object.freeze({
  tunables: 'glibc.cpu.hwcaps=-AVX2,-AVX_Fast_Unaligned_Load,-BMI1,-BMI2,-LZCNT,-FMA,-MOVBE,-ERMS',
  v8Flags: ['--no-enable-avx2', '--no-enable-bmi1', '--no-enable-bmi2', '--no-enable-lzcnt', '--no-enable-fma3']
})

const [nodeHttp] = await benchSuts(['node-http'])
const [copyWork] = await resolveSubjects([loadSut(new URL('../test/fixtures/suts/copy-work', import.meta.url).pathname)],
  { runtimes: [DEFAULT_RUNTIME], workers: 1 })
const TARGETS = [{ label: 'node-http × json', sut: nodeHttp }, { label: 'copy-work fixture × json', sut: copyWork }]

/**
 * The four arms of a Node SUT.
 * @param {import('../src/subjects/suts/resolve-subjects.js').Subject} sut
 * @returns {Record<string, import('../src/measures/instructions/counts/count-instructions.js').CountSettings>}
 */
function armsOf (sut) {
  const own = NODE_COUNT_SETTINGS
  const lacking = { nodeFlags: [...own.nodeFlags, ...WITHOUT_AVX2.v8Flags], env: own.env }
  return {
    "(a) dyno's": countSettingsFor(sut),
    "(b) dyno's, cpu without AVX2": withCpuBaseline(lacking, 'node', WITHOUT_AVX2.tunables),
    '(c) no baseline': own,
    '(d) no baseline, cpu without AVX2': { ...lacking, env: { ...own.env, GLIBC_TUNABLES: WITHOUT_AVX2.tunables } }
  }
}

/** Every launch to make, the arms of a target alternating (their order turns by one each launch). */
const planned = TARGETS.flatMap((target, which) => Array.from({ length: launches }, (_, launch) => {
  const names = Object.keys(armsOf(target.sut))
  return [...names.slice(launch % names.length), ...names.slice(0, launch % names.length)].map((arm) => ({ which, arm }))
}).flat())
const started = performance.now()
const counts = await mapLimit(planned, availableParallelism(), async ({ which, arm }) => {
  const target = TARGETS[which]
  const count = await countOnce({ sut: target.sut, scenario: scenarioNamed('json'), settings: armsOf(target.sut)[arm] })
  console.log(`${target.label} ${arm}: ${count.instructionsPerRequest} instructions/request, windows ` +
    `${count.windows.map((window) => window.instructionsPerRequest).join(' ')}`)
  return count.instructionsPerRequest
})
const seconds = Math.round((performance.now() - started) / 1000)

const lines = [
  `${launches} launches an arm, alternating, ${availableParallelism()} counts at once; each a count of ` +
    `${INSTRUCTION_COUNT_DEFAULTS.windows} ` +
    `windows of ${INSTRUCTION_COUNT_DEFAULTS.windowRequests} requests after ${INSTRUCTION_COUNT_DEFAULTS.warmupRequests} uncounted ones; ` +
    `${seconds} s in all. This cpu has, of what the baseline hides: ${maskedCpuFlags()?.join(', ') ?? '(unknown)'}. The baseline ` +
    `${CPU_BASELINE.name} (${CPU_BASELINE.level}): GLIBC_TUNABLES=${countTunables(undefined).value}, ` +
    `${CPU_BASELINE.v8Flags.join(' ')}. The cpu without AVX2: GLIBC_TUNABLES=${WITHOUT_AVX2.tunables}, ${WITHOUT_AVX2.v8Flags.join(' ')}.`
]
for (const [which, target] of TARGETS.entries()) {
  const names = Object.keys(armsOf(target.sut))
  const of = (/** @type {string} */ arm) => counts.filter((_, index) => planned[index].which === which && planned[index].arm === arm)
  const middle = (/** @type {string} */ arm) => median(of(arm))
  const [a, b, c, d] = names.map(middle)
  const table = [
    '',
    `${target.label}:`,
    '',
    '| settings | instructions per request, each launch | median | largest launch / smallest |',
    '|---|---|---:|---:|',
    ...names.map((arm) => `| ${arm} | ${of(arm).join(', ')} | ${middle(arm)} | ${(max(of(arm)) / min(of(arm))).toFixed(4)} |`),
    '',
    `Without the baseline, the cpu without AVX2 / this one (d / c): ${(d / c).toFixed(4)}; with it (b / a): ${(b / a).toFixed(4)}. ` +
      `The baseline against none on this cpu (a / c): ${(a / c).toFixed(4)}.`
  ]
  console.log(table.join('\n'))
  lines.push(...table)
}
writeMeasuredBlock({ script: import.meta.url, lines })
