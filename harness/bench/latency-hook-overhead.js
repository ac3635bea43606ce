// @ts-check
// What does dyno's per-response hook cost the load generator? The autocannon worker listens to every
// response and records its latency into a µs HDR histogram (load-worker.js, latency-histogram.js).
// This drives node-http on 127.0.0.1 with autocannon as the worker does (its own process, the body
// checked), in arms that differ only in the hook, in counterbalanced rounds (A B C, then C B A, …),
// each round a fresh autocannon process, and prints the mean req/s of each arm and the relative cost.
// On a shared machine req/s swings with whatever else runs, so each round also reports the generator's
// own CPU time per response (process.cpuUsage): the hook's cost shows there even when the rate is noisy,
// and while the generator is the bottleneck, req/s is the inverse of it. Last, the hook alone, timed in
// a tight loop (ns per call).
//
//   node harness/bench/latency-hook-overhead.js [--rounds 6] [--duration 5] [--connections 100]
//
// Arms: `bare` (no response listener), `histogram` (the listener + recordLatencyMs into the µs
// histogram), and, when load/timeseries.js is there, `histogram+windows` (also the per-window recorder).
import { fork } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { SCENARIOS } from '@dyno/scenarios'
import { createLatencyHistogram, recordLatencyMs } from '../src/load/latency-histogram.js'
import { PACKAGES_DIR } from '../src/platform/paths.js'
import { runEnv } from '../src/platform/env/run-env.js'
import { startSut } from '../src/subjects/sut-process/start-sut.js'
import { loadSut } from '../src/subjects/suts/discover-suts.js'

const SELF = fileURLToPath(import.meta.url)
const WARMUP_SEC = 3
/** A round's autocannon must be done this long after its duration, or it is killed. */
const ROUND_GRACE_MS = 15_000

/**
 * @typedef {{ arm: string, requests: number, durationSec: number, requestsPerSec: number, cpuUsPerResponse: number,
 *   latencySamples: number }} RoundResult
 */

/**
 * @returns {Promise<typeof import('../src/load/timeseries.js').createWindowRecorder | null>} the window recorder, when the module exists
 */
async function windowRecorderFactory () {
  try {
    return (await import('../src/load/timeseries.js')).createWindowRecorder
  } catch {
    return null
  }
}

/**
 * One round, in this process (the child): autocannon with or without the hook, as the worker runs it.
 * @param {string} arm @param {string} url @param {number} durationSec @param {number} connections
 * @returns {Promise<RoundResult>}
 */
async function runRound (arm, url, durationSec, connections) {
  const expected = SCENARIOS.find((scenario) => scenario.name === 'plaintext')?.expect.body?.text
  const histogram = createLatencyHistogram()
  const createWindowRecorder = arm === 'histogram+windows' ? await windowRecorderFactory() : null
  // 250 ms windows, the worker's default; its timer runs until finish().
  const windows = createWindowRecorder ? createWindowRecorder(250) : null
  return new Promise((resolve, reject) => {
    const cpuBefore = process.cpuUsage()
    const instance = autocannon({ url, connections, duration: durationSec, verifyBody: (body) => body === expected }, (error, result) => {
      const cpu = process.cpuUsage(cpuBefore)
      windows?.finish()
      if (error) return reject(error)
      const requests = result.requests.total
      resolve({
        arm,
        requests,
        durationSec: result.duration,
        requestsPerSec: requests / result.duration,
        cpuUsPerResponse: (cpu.user + cpu.system) / requests,
        latencySamples: histogram.totalCount
      })
    })
    if (arm === 'histogram') {
      instance.on('response', (client, statusCode, resBytes, responseTimeMs) => recordLatencyMs(histogram, responseTimeMs))
    } else if (windows) {
      instance.on('response', (client, statusCode, resBytes, responseTimeMs) => {
        recordLatencyMs(histogram, responseTimeMs)
        windows.response(responseTimeMs)
      })
    }
  })
}

/**
 * Runs one round in a fresh process, so that no arm inherits another's JIT state.
 * @param {string[]} args @param {Record<string, string>} env
 * @returns {Promise<RoundResult>}
 */
function roundInChild (args, env) {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--child', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); reject(new Error(`round ${args.join(' ')} did not finish in time`))
    }, Number(args[2]) * 1000 + ROUND_GRACE_MS)
    child.once('message', (/** @type {any} */ message) => { clearTimeout(timer); resolve(message) })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`round ${args.join(' ')} exited with ${code} before reporting`)) })
  })
}

/**
 * The hook alone, in a tight loop: autocannon emits 'response' for every response whether or not anyone
 * listens, so the hook's cost is an emit with the listener minus an emit without it.
 * @returns {{ emitWithoutNs: number, emitWithHookNs: number }} ns per response, over latencies spread like a loaded server's (0.2–20 ms)
 */
function timeHookNs () {
  const latenciesMs = Array.from({ length: 4096 }, (_, index) => 0.2 + (index * 7919 % 4096) / 4096 * 20)
  const calls = 5_000_000
  const client = {}
  const perCall = (/** @type {EventEmitter} */ emitter) => {
    for (let index = 0; index < 100_000; index++) emitter.emit('response', client, 200, 120, latenciesMs[index & 4095])
    const started = process.hrtime.bigint()
    for (let index = 0; index < calls; index++) emitter.emit('response', client, 200, 120, latenciesMs[index & 4095])
    return Number(process.hrtime.bigint() - started) / calls
  }
  const histogram = createLatencyHistogram()
  const hooked = new EventEmitter()
  hooked.on('response', (client, statusCode, resBytes, responseTimeMs) => recordLatencyMs(histogram, responseTimeMs))
  return { emitWithoutNs: perCall(new EventEmitter()), emitWithHookNs: perCall(hooked) }
}

/** @param {number[]} values */
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length
/** @param {number[]} values sample standard deviation */
const stdev = (values) => Math.sqrt(values.reduce((sum, value) => sum + (value - mean(values)) ** 2, 0) / Math.max(1, values.length - 1))

async function main () {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '6' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '100' }
    }
  })
  const rounds = Number(values.rounds)
  const durationSec = Number(values.duration)
  const connections = Number(values.connections)
  const arms = ['bare', 'histogram', ...(await windowRecorderFactory() ? ['histogram+windows'] : [])]
  const env = runEnv(`bench-hook-${randomBytes(3).toString('hex')}`)
  const sut = await startSut(loadSut(join(PACKAGES_DIR, 'node-http')), { readyTimeoutSec: 15, stopGraceSec: 5, env })
  const url = `http://127.0.0.1:${sut.port}/plaintext`
  /** @type {Record<string, number[]>} */
  const rates = Object.fromEntries(arms.map((arm) => [arm, []]))
  /** @type {Record<string, number[]>} */
  const cpuPerResponse = Object.fromEntries(arms.map((arm) => [arm, []]))
  try {
    process.stdout.write(`node-http ${url}, ${connections} connections, ${rounds} rounds × ${arms.length} arms × ${durationSec} s ` +
      `(+ ${WARMUP_SEC} s warmup), ${process.version}\n`)
    await roundInChild(['bare', url, String(WARMUP_SEC), String(connections)], env)
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? arms : [...arms].reverse()
      const line = []
      for (const arm of order) {
        const result = await roundInChild([arm, url, String(durationSec), String(connections)], env)
        rates[arm].push(result.requestsPerSec)
        cpuPerResponse[arm].push(result.cpuUsPerResponse)
        line.push(`${arm} ${Math.round(result.requestsPerSec)} req/s ${result.cpuUsPerResponse.toFixed(2)} µs CPU/response`)
      }
      process.stdout.write(`round ${round + 1}: ${line.join(', ')}\n`)
    }
  } finally {
    await sut.stop(5000)
  }
  const bare = mean(rates.bare)
  for (const arm of arms) {
    const cost = (bare - mean(rates[arm])) / bare * 100
    // The same cost round by round (each round's arms ran back to back): its spread says how sure the mean is.
    const paired = rates[arm].map((rate, round) => (rates.bare[round] - rate) / rates.bare[round] * 100)
    process.stdout.write(
      `${arm.padEnd(18)} mean ${Math.round(mean(rates[arm])).toString().padStart(7)} req/s  ` +
        `stdev ${Math.round(stdev(rates[arm])).toString().padStart(5)}` +
        `${arm === 'bare'
? ''
: `  cost vs bare ${cost.toFixed(1)}% (per round: ${mean(paired).toFixed(1)} ± ` +
          `${stdev(paired).toFixed(1)}%)`}\n`
    )
  }
  for (const arm of arms) {
    const extra = cpuPerResponse[arm].map((cpu, round) => (cpu - cpuPerResponse.bare[round]) / cpuPerResponse.bare[round] * 100)
    process.stdout.write(
      `${arm.padEnd(18)} generator CPU ${mean(cpuPerResponse[arm]).toFixed(2)} µs/response ` +
        `(stdev ${stdev(cpuPerResponse[arm]).toFixed(2)})` +
        `${arm === 'bare'
? ''
: `  ${mean(extra) >= 0 ? '+' : ''}${mean(extra).toFixed(1)} ± ${stdev(extra).toFixed(1)}% vs ` +
          'bare, per round'}\n`
    )
  }
  const { emitWithoutNs, emitWithHookNs } = timeHookNs()
  const hookNs = emitWithHookNs - emitWithoutNs
  process.stdout.write(
    `the hook alone: emit('response') ${emitWithoutNs.toFixed(1)} ns without a listener, ${emitWithHookNs.toFixed(1)} ns with it: ` +
      `${hookNs.toFixed(1)} ns per response, ${((hookNs / 1000 / mean(cpuPerResponse.bare)) * 100).toFixed(2)}% of the generator's CPU ` +
        'per response\n'
  )
}

if (process.argv[2] === '--child') {
  const [arm, url, durationSec, connections] = process.argv.slice(3)
  runRound(arm, url, Number(durationSec), Number(connections))
    .then((result) => process.send?.(result, () => process.disconnect()))
    .catch((error) => { process.stderr.write(`${error.stack}\n`); process.exitCode = 1 })
} else {
  main().catch((error) => { process.stderr.write(`${error.stack ?? error}\n`); process.exitCode = 1 })
}
