// @ts-check
// Does the native engine read a SUT as bare wrk does? Clients differ in how they answer a response with the next request,
// and a SUT's throughput follows how many requests it finds per wake-up: so against each SUT, the native engine (the binary
// itself, with the config dyno gives it) and bare `wrk -t1` drive the same SUT process under the same pinning (the SUT on one
// cpu, the generator on another), alternately (native, wrk, wrk, native, …: the machine's speed drifts between passes), each
// a warm-up then a measured phase on fresh connections. Per pair: each engine's req/s, their ratio, each engine's CPU time per
// response, and the SUT's main thread's voluntary context switches per 1,000 responses (how often it waited for requests).
// The bar: median native / wrk within 0.97–1.03 on the Node SUTs that set their own pace, and ≥ 1.0 on the fastest SUT,
// where both engines run out first (native checks every body; bare wrk checks none).
//
//   node harness/bench/native-engine-agrees-with-wrk.js [--pairs 5] [--suts fastify,koa,express,node-http,uwebsockets] [--scenario json]
//     [--connections 100] [--warmup 2] [--duration 5] [--sut-cpu 0] [--generator-cpu 1] [--ceiling uwebsockets]
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { scenarioLoadPlan } from '../src/load/load-plan.js'
import { findNativeEngine } from '../src/load/engines/native/native-binary.js'
import { engineConfig } from '../src/load/engines/native/native-config.js'
import { findWrk } from '../src/load/engines/wrk/wrk-phase.js'
import { PACKAGES_DIR } from '../src/platform/paths.js'
import { runEnv } from '../src/platform/env/run-env.js'
import { createRunId } from '../src/records/run-id.js'
import { startSut } from '../src/subjects/sut-process/start-sut.js'
import { loadSut } from '../src/subjects/suts/discover-suts.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '5' },
    suts: { type: 'string', default: 'fastify,koa,express,node-http,uwebsockets' },
    ceiling: { type: 'string', default: 'uwebsockets' },
    scenario: { type: 'string', default: 'json' },
    connections: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    'sut-cpu': { type: 'string', default: '0' },
    'generator-cpu': { type: 'string', default: '1' },
    'no-block': { type: 'boolean', default: false }
  }
})
const pairs = Number(values.pairs)
const connections = Number(values.connections)
const warmupSec = Number(values.warmup)
const durationSec = Number(values.duration)
const generatorCpu = String(values['generator-cpu'])
const scenario = SCENARIOS.find((candidate) => candidate.name === values.scenario)
if (!scenario) throw new Error(`no scenario ${values.scenario}`)
const native = findNativeEngine()
if (!native.ok) throw new Error(native.reason)
const nativePath = /** @type {string} */ (native.path)
const found = findWrk()
if (!found) throw new Error('wrk is not installed (apt-get install wrk)')
const wrk = found

/**
 * @typedef {{ requestsPerSec: number, responses: number, cpuSec: number }} EngineRun
 */

/**
 * Runs a command pinned to the generator cpu under bash, which reports the CPU its children used.
 * @param {string[]} command @param {string} [input] written to its standard input
 * @returns {Promise<{ stdout: string, cpuSec: number }>}
 */
function timed (command, input) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', '"$@" >&3; times >&2', 'timed', 'taskset', '-c', generatorCpu, ...command], {
      stdio: ['pipe', 'ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdio[3]?.on('data', (chunk) => { stdout += chunk })
    child.stderr?.on('data', (chunk) => { stderr += chunk })
    child.stdin?.end(input ?? '')
    const timer = setTimeout(() => child.kill('SIGKILL'), (warmupSec + durationSec + 30) * 1000)
    child.on('close', (code) => {
      clearTimeout(timer)
      // `times` prints the shell's own user and system time, then its children's: `0m5.280s 0m0.860s`.
      const childLine = stderr.trim().split('\n').at(-1) ?? ''
      const seconds = [...childLine.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]))
      if (code !== 0 || seconds.length !== 2) return reject(new Error(`${command.join(' ')} failed (${code}): ${stderr}`))
      resolve({ stdout, cpuSec: seconds[0] + seconds[1] })
    })
  })
}

/** @param {number} port @returns {Promise<EngineRun>} */
async function runNative (port) {
  const plan = scenarioLoadPlan({
    port,
    scenario: /** @type {any} */ (scenario),
    connections,
    pipelining: 1,
    warmupSec,
    durationSec,
    windowMs: 250
  })
  const { stdout, cpuSec } = await timed([nativePath], JSON.stringify(engineConfig(plan, 1)))
  const reports = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((message) => message.type === 'phase')
    .map((message) => message.report)
  const measure = reports.find((report) => report.name === 'measure')
  if (measure.mismatches > 0 || measure.errors > 0) throw new Error(`native: ${measure.mismatches} mismatches, ${measure.errors} errors`)
  return {
    requestsPerSec: measure.requests / (measure.durationMs / 1000),
    responses: reports.reduce((sum, report) => sum + report.requests, 0),
    cpuSec
  }
}

/** @param {number} port @returns {Promise<EngineRun>} */
async function runWrk (port) {
  const url = `http://127.0.0.1:${port}${scenario?.request.path}`
  const phases = []
  for (const seconds of [warmupSec, durationSec]) {
    const { stdout, cpuSec } = await timed([(wrk), '-t1', `-c${connections}`, `-d${seconds}s`, url])
    const requests = Number(/(\d+) requests in/.exec(stdout)?.[1])
    const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1])
    if (!(requests > 0) || /Non-2xx|Socket errors/.test(stdout)) throw new Error(`wrk: ${stdout}`)
    phases.push({ requests, rate, cpuSec })
  }
  return { requestsPerSec: phases[1].rate, responses: phases[0].requests + phases[1].requests, cpuSec: phases[0].cpuSec + phases[1].cpuSec }
}

/** @param {number} pid @returns {number} the voluntary context switches of the process's main thread so far */
function voluntarySwitches (pid) {
  return Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'))?.[1] ?? NaN)
}

/**
 * @param {string} name
 * @returns {Promise<{ sut: string, rows: { pair: number, order: string, native: number, wrk: number, ratio: number, nativeCpuUs: number,
 *   wrkCpuUs: number, nativeWakeups: number, wrkWakeups: number }[]}>}
 */
async function measureSut (name) {
  const sut = loadSut(join(PACKAGES_DIR, name))
  const running = await startSut(sut, {
    readyTimeoutSec: 15,
    stopGraceSec: 5,
    env: runEnv(createRunId()),
    cpus: [Number(values['sut-cpu'])]
  })
  const rows = []
  try {
    for (let pair = 1; pair <= pairs; pair++) {
      const order = pair % 2 === 1 ? ['native', 'wrk'] : ['wrk', 'native']
      /** @type {Record<string, EngineRun & { wakeups: number }>} */
      const result = {}
      for (const engine of order) {
        const before = voluntarySwitches(running.pid)
        const run = engine === 'native' ? await runNative(running.port) : await runWrk(running.port)
        result[engine] = { ...run, wakeups: (voluntarySwitches(running.pid) - before) / run.responses * 1000 }
      }
      const cpuUs = (/** @type {string} */ engine) => result[engine].cpuSec / result[engine].responses * 1e6
      const row = {
        pair,
        order: order.join(' '),
        native: result.native.requestsPerSec,
        wrk: result.wrk.requestsPerSec,
        ratio: result.native.requestsPerSec / result.wrk.requestsPerSec,
        nativeCpuUs: cpuUs('native'),
        wrkCpuUs: cpuUs('wrk'),
        nativeWakeups: result.native.wakeups,
        wrkWakeups: result.wrk.wakeups
      }
      rows.push(row)
      console.log(
        `${name} pair ${pair} (${row.order}): native ${integer(row.native)} req/s, wrk ${integer(row.wrk)} req/s, ` +
          `native/wrk ${row.ratio.toFixed(3)}; CPU per response native ${row.nativeCpuUs.toFixed(2)} µs, wrk ` +
            `${row.wrkCpuUs.toFixed(2)} µs; ` +
          `SUT wake-ups per 1,000 responses native ${row.nativeWakeups.toFixed(1)}, wrk ${row.wrkWakeups.toFixed(1)}`
      )
    }
  } finally {
    await running.stop(5000)
  }
  return { sut: name, rows }
}

const integer = (/** @type {number} */ value) => Math.round(value).toLocaleString('en-US')
console.log(
  `${values.suts} × ${scenario.name}, SUT on cpu ${values['sut-cpu']}, engines on cpu ${generatorCpu}; ${connections} connections, ` +
    `${warmupSec} s warm-up + ${durationSec} s; ${pairs} pairs each, order flipping each pair; native ${native.version}; ${wrk}`
)
const results = []
for (const name of String(values.suts).split(',')) results.push(await measureSut(name))
const summaries = results.map(({ sut, rows }) => {
  const ratio = median(rows.map((row) => row.ratio))
  const ceiling = sut === values.ceiling
  const met = ceiling ? ratio >= 1 : ratio >= 0.97 && ratio <= 1.03
  return {
    sut,
    ratio,
    bar: ceiling ? '≥ 1.0' : '0.97–1.03',
    met,
    pairs: rows.map((row) => row.ratio.toFixed(3)).join(', '),
    nativeCpu: median(rows.map((row) => row.nativeCpuUs)),
    wrkCpu: median(rows.map((row) => row.wrkCpuUs)),
    nativeWakeups: median(rows.map((row) => row.nativeWakeups)),
    wrkWakeups: median(rows.map((row) => row.wrkWakeups)),
    native: median(rows.map((row) => row.native)),
    wrk: median(rows.map((row) => row.wrk))
  }
})
for (const row of summaries) {
  console.log(`${row.sut}: median native / wrk ${row.ratio.toFixed(3)} (bar ${row.bar}: ${row.met ? 'met' : 'not met'})`)
}
if (!values['no-block']) {
  writeMeasuredBlock({
    script: import.meta.url,
    lines: [
      `${scenario.name}, the SUT on cpu ${values['sut-cpu']}, the generator on cpu ${generatorCpu}, ${connections} connections, ` +
        `${warmupSec} s ` +
        `warm-up + ${durationSec} s, ${pairs} pairs per SUT alternating the native engine (${native.version}, every body ` +
          'checked) with bare ' +
        `\`wrk -t1 -c${connections}\` (${wrk}, nothing checked), the same SUT process throughout. Wake-ups: the SUT's main ` +
          'thread\'s voluntary ' +
        'context switches (the times it waited for requests) per 1,000 responses. Medians.',
      '',
      '| SUT | native req/s | wrk req/s | native / wrk (pairs) | bar | CPU per response, native / wrk | SUT wake-ups per 1,000 ' +
        'responses, native / wrk |',
      '|---|---:|---:|---|---|---:|---:|',
      ...summaries.map(
        (row) =>
          `| ${row.sut} | ${integer(row.native)} | ${integer(row.wrk)} | **${row.ratio.toFixed(3)}** (${row.pairs}) | ` +
          `${row.bar}: ${row.met ? 'met' : 'not met'} | ${row.nativeCpu.toFixed(2)} / ${row.wrkCpu.toFixed(2)} µs | ` +
          `${row.nativeWakeups.toFixed(1)} / ${row.wrkWakeups.toFixed(1)} |`
      )
    ]
  })
}
