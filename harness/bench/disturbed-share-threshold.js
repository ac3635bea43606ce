// @ts-check
// Where does a cell start to measure the machine's other work? The same cells measured on the quiet machine, beside a busy loop
// pinned to the SUT's cpu, beside one pinned to the generator's, and beside a type-check of this repository (a developer's build, on
// whichever cpu the kernel gives it), the conditions taking turns round after round. Every cell reports the share of the SUT's and
// the generator's cpus other processes took (the worst of the two), and its req/s against the same SUT's quiet cells: the
// threshold of a disturbed cell (judging/disturbance.js) is set between what the quiet machine shows and what a neighbour takes.
//
//   node harness/bench/disturbed-share-threshold.js [--rounds 3] [--suts node-http,fastify,express,koa] [--warmup 0.5] [--duration 1]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { max, median, min } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { parseOptions } from '../src/interface/cli/command-table.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { DEFAULT_PIN } from '../src/platform/pinning/parse-pin.js'
import { resolvePinning } from '../src/platform/pinning/resolve-pinning.js'
import { DISTURBED_SHARE_PCT } from '../src/judging/disturbance.js'
import { loadSettingsOf } from '../src/measures/index.js'
import { nativeEngine } from '../src/load/engines/native/native-descriptor.js'
import { runSuite } from '../src/suite/run-suite.js'
import { DEFAULT_RUNTIME } from '../src/subjects/runtimes/runtime-targets.js'
import { discoverSuts } from '../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../src/subjects/suts/resolve-subjects.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { suiteOptions } from '../test/support/suite-options.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    suts: { type: 'string', default: 'node-http,fastify,express,koa' },
    warmup: { type: 'string', default: '0.5' },
    duration: { type: 'string', default: '1' }
  }
})
const scenario = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((candidate) => candidate.name === 'json'))
const names = String(values.suts).split(',')
const suts = await resolveSubjects(discoverSuts().filter((sut) => names.includes(sut.name)), { runtimes: [DEFAULT_RUNTIME], workers: 1 })
const pinning = resolvePinning(DEFAULT_PIN)
if (!pinning.pinned) throw new Error(`this bench pins a busy loop beside the SUT and beside the generator: ${pinning.reason}`)
const [sutCpu] = /** @type {number[]} */ (pinning.sutCpus)
const [generatorCpu] = /** @type {number[]} */ (pinning.generatorCpus)
const out = mkdtempSync(join(tmpdir(), 'dyno-disturbed-'))
const options = parseOptions('run', { '--duration': String(values.duration), '--warmup': String(values.warmup) }).values

/**
 * A neighbour, started by a shell that exits at once, so that it is no child of dyno's (whose children are dyno's own); it ends by
 * itself after a minute at most, and is killed when its condition ends.
 * @param {string} command for sh -c, with "$0" the node binary @returns {() => void} stops it
 */
function startNeighbour (command) {
  const pid = Number(
    execFileSync('sh', ['-c', `${command} >/dev/null 2>&1 & echo $!`, process.execPath], { encoding: 'utf8', cwd: REPO_ROOT })
  )
  return () => {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {}
    }
  }
}

const busyLoop = (/** @type {number} */ cpu) =>
  `setsid taskset -c ${cpu} "$0" -e 'const end = Date.now() + 60000; while (Date.now() < end);'`
/** @type {{ name: string, start: () => (() => void) }[]} */
const CONDITIONS = [
  { name: 'quiet', start: () => () => {} },
  { name: `a busy loop on the SUT's cpu (${sutCpu})`, start: () => startNeighbour(busyLoop(sutCpu)) },
  { name: `a busy loop on the generator's cpu (${generatorCpu})`, start: () => startNeighbour(busyLoop(generatorCpu)) },
  {
    name: 'a type-check of this repository, unpinned',
    start: () => startNeighbour('setsid timeout 60 sh -c \'while :; do "$0" node_modules/typescript/bin/tsc -p tsconfig.json; done\' "$0"')
  }
]

/**
 * Each SUT's json cell once under a condition: measured, never measured again, the share others took kept.
 * @param {typeof CONDITIONS[number]} condition
 */
async function measureUnder (condition) {
  const stop = condition.start()
  try {
    const { records } = await runSuite(...suiteOptions({
      suts,
      scenarios: [scenario],
      load: loadSettingsOf(options, nativeEngine),
      connections: [100],
      out,
      readyTimeoutSec: 15,
      pinning,
      quietCheck: 'off',
      // The share itself is measured here: no cell is measured again.
      disturbedAbovePct: 99.9,
      recorded: { bench: 'disturbed-share-threshold' }
    }))
    return records.map((record) => {
      if (record.status !== 'ok' || !record.summary?.interference) throw new Error(`${record.sut.name}: ${record.status} ${record.reason}`)
      return {
        sut: record.sut.name,
        requestsPerSec: record.summary.requestsPerSec.mean,
        worstSharePct: record.interference?.worstSharePct ?? 0
      }
    })
  } finally {
    stop()
  }
}

/** @type {Map<string, { sut: string, requestsPerSec: number, worstSharePct: number }[]>} */
const cells = new Map(CONDITIONS.map((condition) => [condition.name, []]))
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const condition of CONDITIONS) {
    const measured = await measureUnder(condition)
    cells.get(condition.name)?.push(...measured)
    console.error(`round ${round}, ${condition.name}: ${measured.map((cell) => `${cell.sut} ${Math.round(cell.requestsPerSec)} req/s, ` +
      `${cell.worstSharePct} %`).join('; ')}`)
  }
}
rmSync(out, { recursive: true, force: true })

const quietRate = (/** @type {string} */ sut) =>
  median((cells.get('quiet') ?? []).filter((cell) => cell.sut === sut).map((cell) => cell.requestsPerSec))
const lines = [
  `${names.join(', ')} × json, ${values.warmup} s warm-up + ${values.duration} s each, native engine, 100 connections, SUT on cpu ` +
    `${sutCpu} and ` +
    `generator on cpu ${generatorCpu}; ${values.rounds} rounds, the conditions taking turns. Share: the worst of what other processes ` +
    "and the hypervisor took of the SUT's and of the generator's cpu while the cell was measured.",
  '',
  "| beside the run | cells | share taken: median (min–max) | req/s against the same SUT's quiet cells: median (min–max) | " +
    `disturbed at ${DISTURBED_SHARE_PCT} % |`,
  '|---|---:|---:|---:|---:|',
  ...CONDITIONS.map(({ name }) => {
    const list = cells.get(name) ?? []
    const shares = list.map((cell) => cell.worstSharePct)
    const ratios = list.map((cell) => cell.requestsPerSec / quietRate(cell.sut))
    const pct = (/** @type {number} */ value) => `${value.toFixed(1)} %`
    const ratio = (/** @type {number} */ value) => value.toFixed(2)
    return (
      `| ${name} | ${list.length} | ${pct(median(shares))} (${pct(min(shares))}–${pct(max(shares))}) | ` +
      `${ratio(median(ratios))} (${ratio(min(ratios))}–${ratio(max(ratios))}) | ` +
      `${shares.filter((share) => share > DISTURBED_SHARE_PCT).length} of ${list.length} |`
    )
  })
]
console.log(lines.join('\n'))
writeMeasuredBlock({ script: import.meta.url, lines })
