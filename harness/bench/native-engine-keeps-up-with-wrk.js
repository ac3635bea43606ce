// @ts-check
// Does the native engine keep up with bare wrk, the fastest generator on this machine? Both drive the same
// SUT (uwebsockets, json, by default) under the same pinning (the SUT on one cpu, the generator on
// another), alternately (native, wrk, wrk, native, …: the order flips every pair, as the machine's speed
// drifts between passes), each a warm-up then a measured phase on fresh connections. Per pair: each
// engine's measured req/s, their ratio, and each engine's CPU time per response (user + system, from the
// shell's `times`, over both phases). At the end, the medians: the bar is native / wrk ≥ 0.95 in req/s, and
// native's CPU per response ≤ wrk's. The native engine checks every response's body; bare wrk checks nothing.
//
//   node harness/bench/native-engine-keeps-up-with-wrk.js [--pairs 5] [--sut uwebsockets] [--scenario json]
//     [--connections 100] [--warmup 2] [--duration 5] [--sut-cpu 0] [--generator-cpu 1]
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from 'simple-statistics'
import { scenarioLoadPlan } from '../src/load/load-plan.js'
import { engineConfig, findNativeEngine } from '../src/load/engines/native/native-engine.js'
import { findWrk } from '../src/load/engines/wrk/wrk-phase.js'
import { PACKAGES_DIR } from '../src/paths.js'
import { runEnv } from '../src/run/run-env.js'
import { createRunId } from '../src/run/run-id.js'
import { startSut } from '../src/sut-process/start-sut.js'
import { loadSut } from '../src/suts/discover-suts.js'
import { SCENARIOS } from '@dyno/scenarios'

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '5' },
    sut: { type: 'string', default: 'uwebsockets' },
    scenario: { type: 'string', default: 'json' },
    connections: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    'sut-cpu': { type: 'string', default: '0' },
    'generator-cpu': { type: 'string', default: '1' }
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
    child.on('exit', (code) => {
      clearTimeout(timer)
      // `times` prints the shell's own user and system time, then its children's: `0m5.280s 0m0.860s`.
      const childLine = stderr.trim().split('\n').at(-1) ?? ''
      const seconds = [...childLine.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]))
      if (code !== 0 || seconds.length !== 2) return reject(new Error(`${command.join(' ')} failed (${code}): ${stderr}`))
      resolve({ stdout, cpuSec: seconds[0] + seconds[1] })
    })
  })
}

/** @param {number} port @returns {Promise<{ requestsPerSec: number, responses: number, cpuSec: number }>} */
async function runNative (port) {
  const plan = scenarioLoadPlan({ port, scenario: /** @type {any} */ (scenario), connections, pipelining: 1, warmupSec, durationSec, windowMs: 250 })
  const { stdout, cpuSec } = await timed([nativePath], JSON.stringify(engineConfig(plan, 1)))
  const reports = stdout.trim().split('\n').map((line) => JSON.parse(line)).filter((message) => message.type === 'phase').map((message) => message.report)
  const measure = reports.find((report) => report.name === 'measure')
  if (measure.mismatches > 0 || measure.errors > 0) throw new Error(`native: ${measure.mismatches} mismatches, ${measure.errors} errors`)
  return { requestsPerSec: measure.requests / (measure.durationMs / 1000), responses: reports.reduce((sum, report) => sum + report.requests, 0), cpuSec }
}

/** @param {number} port @returns {Promise<{ requestsPerSec: number, responses: number, cpuSec: number }>} */
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

const sut = loadSut(join(PACKAGES_DIR, String(values.sut)))
const running = await startSut(sut, { readyTimeoutSec: 15, stopGraceSec: 5, env: runEnv(createRunId()), cpus: [Number(values['sut-cpu'])] })
console.log(`${sut.name} × ${scenario.name} on cpu ${values['sut-cpu']}; engines on cpu ${generatorCpu}; ` +
  `${connections} connections, ${warmupSec} s warm-up + ${durationSec} s; ${pairs} pairs, order flipping each pair`)
console.log(`native ${native.version}; ${wrk}`)
const rows = []
try {
  for (let pair = 1; pair <= pairs; pair++) {
    const order = pair % 2 === 1 ? ['native', 'wrk'] : ['wrk', 'native']
    /** @type {Record<string, { requestsPerSec: number, responses: number, cpuSec: number }>} */
    const result = {}
    for (const name of order) result[name] = name === 'native' ? await runNative(running.port) : await runWrk(running.port)
    const cpuUs = (/** @type {string} */ name) => result[name].cpuSec / result[name].responses * 1e6
    const row = {
      pair,
      order: order.join(' '),
      native: result.native.requestsPerSec,
      wrk: result.wrk.requestsPerSec,
      ratio: result.native.requestsPerSec / result.wrk.requestsPerSec,
      nativeCpuUs: cpuUs('native'),
      wrkCpuUs: cpuUs('wrk')
    }
    rows.push(row)
    console.log(`pair ${pair} (${row.order}): native ${Math.round(row.native).toLocaleString('en-US')} req/s, ` +
      `wrk ${Math.round(row.wrk).toLocaleString('en-US')} req/s, ` +
      `native/wrk ${row.ratio.toFixed(3)}; CPU per response native ${row.nativeCpuUs.toFixed(2)} µs, wrk ${row.wrkCpuUs.toFixed(2)} µs`)
  }
} finally {
  await running.stop(5000)
}
const ratio = median(rows.map((row) => row.ratio))
const nativeCpu = median(rows.map((row) => row.nativeCpuUs))
const wrkCpu = median(rows.map((row) => row.wrkCpuUs))
console.log(`median native/wrk req/s: ${ratio.toFixed(3)} (bar ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'}); ` +
  `median CPU per response: native ${nativeCpu.toFixed(2)} µs, wrk ${wrkCpu.toFixed(2)} µs (bar native ≤ wrk: ${nativeCpu <= wrkCpu ? 'met' : 'NOT met'})`)
