// @ts-check
// What does the open model cost its generator? The native engine (`--rate`) and Vegeta (support/vegeta.js) send the same request on a
// fixed schedule at the same offered rates to one warm launch of a SUT, both pinned to the same generator cpu, alternating (native,
// Vegeta, native, Vegeta: the machine's speed drifts between runs). Per run, the tool's cpu time (utime + stime of its process from
// /proc/<pid>/stat, every thread) over its measured seconds, as cpu ms per 1,000 requests sent: the same figure as cpu ms per second
// per 1,000 req/s. The table gives the medians of the rounds and the ratio native / Vegeta; every round goes to results/ as JSON.
//
//   node harness/bench/generator-cpu-per-rate.js [--sut node-http] [--scenario json] [--rates 2000,5000] [--rounds 3]
//     [--connections 100] [--warmup 2] [--duration 5] [--sut-cpu 0] [--generator-cpu 1] [--no-block]
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from 'simple-statistics'
import { scenarioLoadPlan } from '../src/load/load-plan.js'
import { findNativeEngine } from '../src/load/engines/native/native-binary.js'
import { startNativeLoad } from '../src/load/engines/native/native-engine.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { readProcStat } from '../src/platform/process/proc-reader.js'
import { clockTicksPerSec } from '../src/platform/process/system-constants.js'
import { benchSuts, scenarioNamed } from './support/bench-counts.js'
import { onFreshLaunch } from './support/fresh-launch.js'
import { goInstalled } from './support/go-tools.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { VEGETA, vegetaRuntime, vegetaTargets } from './support/vegeta.js'

const { values } = parseArgs({
  options: {
    sut: { type: 'string', default: 'node-http' },
    scenario: { type: 'string', default: 'json' },
    rates: { type: 'string', default: '2000,5000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    'sut-cpu': { type: 'string', default: '0' },
    'generator-cpu': { type: 'string', default: '1' },
    'no-block': { type: 'boolean', default: false }
  }
})
const rates = String(values.rates).split(',').map(Number)
const rounds = Number(values.rounds)
const connections = Number(values.connections)
const warmupSec = Number(values.warmup)
const durationSec = Number(values.duration)
const sutCpu = Number(values['sut-cpu'])
const generatorCpu = Number(values['generator-cpu'])
for (const [name, value] of Object.entries({ rounds, connections, warmupSec, durationSec })) {
  if (!(Number.isInteger(value) && value > 0 && value <= 600)) {
    throw new Error(`--${name} must be a whole number from 1 to 600, got ${value}`)
  }
}
if (!rates.every((rate) => rate >= 100 && rate <= 100_000)) {
  throw new Error(`--rates must be req/s from 100 to 100,000, got ${values.rates}`)
}
const scenario = scenarioNamed(String(values.scenario))
if (scenario.protocol !== 'http1') throw new Error(`--scenario must be an HTTP/1.1 scenario, got ${scenario.name}`)
const native = findNativeEngine()
if (!native.ok) throw new Error(native.reason)
const vegeta = goInstalled(VEGETA)
const ticksPerSec = clockTicksPerSec()

/**
 * @typedef {{ tool: 'native' | 'vegeta', round: number, ratePerSec: number, cpuMs: number, measuredSec: number, sentPerSec: number,
 *   failed: number, p50Ms: number, p99Ms: number, maxSendLagMs: number | null }} CpuRun
 */

/** @param {number} pid @returns {{ cpuMs: number, atMs: number }} the process's cpu time so far (all its threads) and when read */
function cpuOf (pid) {
  const stat = readProcStat(pid)
  if (!stat) throw new Error(`process ${pid} ended before its cpu time was read`)
  return { cpuMs: (stat.utimeTicks + stat.stimeTicks) * 1000 / ticksPerSec, atMs: performance.now() }
}

/** @param {{ cpuMs: number, atMs: number }} from @param {{ cpuMs: number, atMs: number }} to */
const spent = (from, to) => ({ cpuMs: to.cpuMs - from.cpuMs, measuredSec: (to.atMs - from.atMs) / 1000 })

/**
 * The native engine at the rate through the harness's own engine module, its cpu read when the measured phase's clock starts and
 * when the phase is reported.
 * @param {number} port @param {number} ratePerSec @returns {Promise<Omit<CpuRun, 'tool' | 'round' | 'ratePerSec'>>}
 */
async function runNative (port, ratePerSec) {
  const plan = scenarioLoadPlan({ port, scenario, connections, pipelining: 1, warmupSec, durationSec, windowMs: 1000, ratePerSec })
  /** @type {{ cpuMs: number, atMs: number } | null} */
  let from = null
  /** @type {{ cpuMs: number, atMs: number } | null} */
  let to = null
  const run = startNativeLoad(plan, {
    threads: 1,
    cpus: [generatorCpu],
    onClock: (phase) => { if (phase === 'measure') from = cpuOf(run.pids[0]) },
    onPhase: (phase) => { if (phase === 'measure') to = cpuOf(run.pids[0]) }
  })
  const measure = (await run.done).phases.measure
  if (!measure?.latencyMs || !from || !to) throw new Error('native: no measured phase')
  return {
    ...spent(from, to),
    sentPerSec: measure.rate?.achievedSendPerSec ?? NaN,
    failed: measure.errors + measure.mismatches + measure.unexpectedStatus,
    p50Ms: measure.latencyMs.p50,
    p99Ms: measure.latencyMs.p99,
    maxSendLagMs: measure.rate?.maxSendLagMs ?? null
  }
}

/**
 * A running tool's cpu over the measured seconds: read at the end of its warm-up, and again `durationSec` later.
 * @param {number} pid @returns {Promise<ReturnType<typeof spent>>}
 */
async function measuredSeconds (pid) {
  await sleep(warmupSec * 1000)
  const from = cpuOf(pid)
  await sleep(durationSec * 1000)
  return spent(from, cpuOf(pid))
}

/**
 * Runs Vegeta pinned to the generator cpu; `during` is called with its pid while it runs.
 * @param {string[]} args @param {string} input @param {(pid: number) => void} [during] @returns {Promise<string>} its standard output
 */
function runVegetaCommand (args, input, during = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', String(generatorCpu), vegeta, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.stdin.end(input)
    const timer = setTimeout(() => child.kill('SIGKILL'), (warmupSec + durationSec + 60) * 1000)
    if (child.pid) during(child.pid)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`vegeta ${args.join(' ')} failed (${code}): ${stderr}`))
      resolve(stdout)
    })
  })
}

/**
 * Vegeta at the rate, one attack of the warm-up and the measured seconds, its cpu read at the end of the warm-up and `durationSec`
 * later; its report read from its record of each response. Its workers (each a request in flight on a connection of its own) are
 * bounded by the native engine's connections: unbounded, its default, a stall of the SUT makes it open thousands of connections on this
 * machine (vegeta-agrees-with-native-rate.js), whose cost is not the schedule's.
 * @param {number} port @param {number} ratePerSec @returns {Promise<Omit<CpuRun, 'tool' | 'round' | 'ratePerSec'>>}
 */
async function runVegeta (port, ratePerSec) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-vegeta-'))
  try {
    const file = join(dir, 'attack.bin')
    /** @type {Promise<ReturnType<typeof spent>>[]} */
    const measured = []
    const args = ['attack', `-rate=${ratePerSec}/1s`, `-max-workers=${connections}`, `-duration=${warmupSec + durationSec + 1}s`,
      '-timeout=10s', `-output=${file}`]
    await runVegetaCommand(args, vegetaTargets(scenario, port), (pid) => {
      const reading = measuredSeconds(pid)
      reading.catch(() => {})
      measured.push(reading)
    })
    const report = JSON.parse(await runVegetaCommand(['report', '-type=json', file], ''))
    if (measured.length === 0) throw new Error('vegeta did not start')
    return {
      ...await measured[0],
      sentPerSec: report.rate,
      failed: report.requests - Math.round(report.success * report.requests),
      p50Ms: report.latencies['50th'] / 1e6,
      p99Ms: report.latencies['99th'] / 1e6,
      maxSendLagMs: null
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** @param {CpuRun} run @returns {number} cpu ms per 1,000 requests sent: cpu ms per second per 1,000 req/s */
const perThousand = (run) => run.cpuMs / run.measuredSec / (run.sentPerSec / 1000)

const runtime = await vegetaRuntime(vegeta)
console.log(`${values.sut} × ${scenario.name}; rates ${rates.join(', ')} req/s; SUT on cpu ${sutCpu}, tools on cpu ${generatorCpu}; ` +
  `${warmupSec} s warm-up + ${durationSec} s per run; ${rounds} rounds on one launch; native ${native.version}; vegeta ${VEGETA.version} ` +
  `(${runtime})`)
const [sut] = await benchSuts([String(values.sut)])
/** @type {CpuRun[]} */
const runs = []
const launch = await onFreshLaunch(sut, { sutCpu, generatorCpu }, async (port) => {
  for (let round = 1; round <= rounds; round++) {
    for (const ratePerSec of rates) {
      for (const tool of /** @type {const} */ (['native', 'vegeta'])) {
        const result = await (tool === 'native' ? runNative : runVegeta)(port, ratePerSec)
        const run = { tool, round, ratePerSec, ...result }
        runs.push(run)
        console.log(`round ${round} @ ${ratePerSec}/s ${tool}: ${perThousand(run).toFixed(1)} cpu ms per 1,000 requests ` +
          `(${(run.cpuMs / run.measuredSec / 10).toFixed(1)} % of a core), sent ${Math.round(run.sentPerSec)}/s, ` +
          `p50 ${run.p50Ms.toFixed(3)} ms, p99 ${run.p99Ms.toFixed(3)} ms, ${run.failed} failed` +
          (run.maxSendLagMs === null ? '' : `, max send lag ${run.maxSendLagMs} ms`))
      }
    }
  }
})

const rows = rates.map((ratePerSec) => {
  const of = (/** @type {'native' | 'vegeta'} */ tool) => runs.filter((run) => run.tool === tool && run.ratePerSec === ratePerSec)
  const nativeRuns = of('native')
  const vegetaRuns = of('vegeta')
  const roundRatios = nativeRuns.map((run, index) => perThousand(run) / perThousand(vegetaRuns[index]))
  return {
    ratePerSec,
    native: median(nativeRuns.map(perThousand)),
    vegeta: median(vegetaRuns.map(perThousand)),
    nativeRounds: nativeRuns.map(perThousand),
    vegetaRounds: vegetaRuns.map(perThousand),
    roundRatio: median(roundRatios),
    failed: [...nativeRuns, ...vegetaRuns].reduce((total, run) => total + run.failed, 0),
    nativeP99: median(nativeRuns.map((run) => run.p99Ms)),
    vegetaP99: median(vegetaRuns.map((run) => run.p99Ms))
  }
})
const one = (/** @type {number} */ value) => value.toFixed(1)
const table = [
  '| offered req/s | native cpu ms per 1,000 requests | Vegeta | native / Vegeta (medians) | median of the rounds\' ratios | ' +
    'rounds native | rounds Vegeta | p99 ms native / Vegeta | failed |',
  '|---:|---:|---:|---:|---:|---|---|---:|---:|',
  ...rows.map((row) => `| ${row.ratePerSec.toLocaleString('en-US')} | ${one(row.native)} | ${one(row.vegeta)} | ` +
    `**${(row.native / row.vegeta).toFixed(2)}** | ${row.roundRatio.toFixed(2)} | ${row.nativeRounds.map(one).join(', ')} | ` +
    `${row.vegetaRounds.map(one).join(', ')} | ${row.nativeP99.toFixed(2)} / ${row.vegetaP99.toFixed(2)} | ${row.failed} |`)
]
console.log(table.join('\n'))
console.log(`others took up to ${Math.round(launch.othersOnSutCpuPct)} % of the SUT's cpu, ` +
  `${Math.round(launch.othersOnToolCpuPct)} % of the tools'`)

const resultsDir = join(REPO_ROOT, 'results')
mkdirSync(resultsDir, { recursive: true })
const resultsFile = join(resultsDir, `generator-cpu-per-rate-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
const raw = { argv: process.argv.slice(2), native: native.version, vegeta: VEGETA.version, launch, runs, rows }
writeFileSync(resultsFile, JSON.stringify(raw, null, 2))
console.log(`every round: ${resultsFile}`)

if (!values['no-block']) {
  writeMeasuredBlock({
    script: import.meta.url,
    lines: [
      `${values.sut} × ${scenario.name}, one launch, the SUT on cpu ${sutCpu}, the tool on cpu ${generatorCpu}; at each offered rate, ` +
        `${rounds} rounds alternating the native engine (${native.version}; \`--rate\`, ${connections} connections, one thread) and ` +
        `Vegeta ${VEGETA.version} (\`vegeta attack -rate R/1s -max-workers ${connections}\`), each ${warmupSec} s warm-up at the rate + ` +
        `${durationSec} s measured. CPU: the tool's user + system time over the measured seconds (every thread of its process, ` +
        '/proc/<pid>/stat), per 1,000 requests sent (the same as cpu ms per second per 1,000 req/s sent). Medians of the rounds; ' +
        `others took up to ${Math.round(launch.othersOnSutCpuPct)} % of the SUT's cpu and ${Math.round(launch.othersOnToolCpuPct)} % ` +
        'of the tool\'s over the launch.',
      '',
      ...table
    ]
  })
}
