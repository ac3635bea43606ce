// @ts-check
// Does the native engine drive HTTP/2, TLS and WebSocket as fast as tools no one here wrote? Three comparisons, each against a SUT
// serving the protocol through its framework's own path, the SUT on one cpu and the tool on another, each run on a fresh launch of the
// SUT (a warm-up, then the measured phase), the two tools alternating (native, other, native, other):
//   - h2-json: h2load (nghttp2-client) at the same connections and concurrent streams per connection as the native engine's h2
//     (`protocol: 'h2'`, `streams`); the SUT is the fastest of the candidates that serve h2-json, measured first by the native engine;
//   - tls-json: `wrk` over https against the native engine's `tls`, at the same connections;
//   - ws-echo: a Go client on gorilla/websocket (support/ws-echo-client, built by `go build` into harness/bench/.tools/) against the
//     native engine's `ws`, one message in flight per connection for both.
// Both sides get the run's certificate (subjects/tls/run-certificate.js) through the SUT's env (protocol-env.js); the native engine
// trusts only it, h2load and wrk do not verify certificates. Per run: responses (or messages) per second, p50 and p99, and the
// tool's CPU time per response. The bar: native at least as fast as the other tool (median ratio ≥ 1.0), or the gap explained.
//
//   node harness/bench/protocol-engines-agree.js [--pairs 3] [--h2-candidates node-http,fastify,hono,go-nethttp] [--tls-sut node-http]
//     [--ws-sut node-http] [--connections 100] [--h2-connections 10] [--streams 10] [--warmup 2] [--duration 5] [--sut-cpu 0]
//     [--generator-cpu 1] [--only h2,tls,ws] [--no-block]
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median, quantileSorted } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { scenarioLoadPlan } from '../src/load/load-plan.js'
import { findNativeEngine } from '../src/load/engines/native/native-binary.js'
import { engineConfig } from '../src/load/engines/native/native-config.js'
import { nativePhaseSummary } from '../src/load/engines/native/native-report.js'
import { findWrk } from '../src/load/engines/wrk/wrk-phase.js'
import { findExecutable } from '../src/platform/util/find-executable.js'
import { protocolEnv } from '../src/subjects/sut-process/protocol-env.js'
import { makeRunCertificate } from '../src/subjects/tls/run-certificate.js'
import { benchSuts } from './support/bench-counts.js'
import { onFreshLaunch } from './support/fresh-launch.js'
import { goBuilt } from './support/go-tools.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    'h2-candidates': { type: 'string', default: 'node-http,fastify,hono,go-nethttp' },
    'tls-sut': { type: 'string', default: 'node-http' },
    'ws-sut': { type: 'string', default: 'node-http' },
    connections: { type: 'string', default: '100' },
    'h2-connections': { type: 'string', default: '10' },
    streams: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    'sut-cpu': { type: 'string', default: '0' },
    'generator-cpu': { type: 'string', default: '1' },
    only: { type: 'string', default: 'h2,tls,ws' },
    'no-block': { type: 'boolean', default: false }
  }
})
const pairs = Number(values.pairs)
const connections = Number(values.connections)
const h2Connections = Number(values['h2-connections'])
const streams = Number(values.streams)
const warmupSec = Number(values.warmup)
const durationSec = Number(values.duration)
const sutCpu = Number(values['sut-cpu'])
const generatorCpu = String(values['generator-cpu'])
for (const [name, value] of Object.entries({ pairs, connections, h2Connections, streams, warmupSec, durationSec })) {
  if (!(Number.isInteger(value) && value > 0 && value <= 1000)) {
    throw new Error(`--${name} must be a whole number from 1 to 1000, got ${value}`)
  }
}
const only = new Set(String(values.only).split(','))
const native = findNativeEngine()
if (!native.ok) throw new Error(native.reason)
const nativePath = /** @type {string} */ (native.path)

/** @param {string} name */
function scenarioNamed (name) {
  const found = SCENARIOS.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no scenario ${name}`)
  return found
}

/**
 * @typedef {{ perSec: number, p50Ms: number, p99Ms: number, cpuUsPerResponse: number, negotiated: string }} ToolResult
 * @typedef {ToolResult & import('./support/fresh-launch.js').LaunchedRun} ToolRun
 * @typedef {{ stdout: string, cpuSec: number }} Timed
 */

/**
 * Runs a command pinned to the generator cpu under bash, which reports the CPU its children used (`times`).
 * @param {string[]} command @param {string} [input] written to its standard input
 * @returns {Promise<Timed>}
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
    const timer = setTimeout(() => child.kill('SIGKILL'), (warmupSec + durationSec + 60) * 1000)
    child.on('close', (code) => {
      clearTimeout(timer)
      const childLine = stderr.trim().split('\n').at(-1) ?? ''
      const seconds = [...childLine.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]))
      if (code !== 0 || seconds.length !== 2) return reject(new Error(`${command.join(' ')} failed (${code}): ${stderr}\n${stdout}`))
      resolve({ stdout, cpuSec: seconds[0] + seconds[1] })
    })
  })
}

/**
 * The native engine's binary given the config the harness gives it (engineConfig), one thread on the generator cpu.
 * @param {import('../src/load/engines/native/native-protocols.js').NativePlan} plan
 * @returns {Promise<ToolResult>}
 */
async function runNative (plan) {
  const { stdout, cpuSec } = await timed([nativePath], JSON.stringify(engineConfig(plan, 1)))
  const messages = stdout.trim().split('\n').map((line) => JSON.parse(line))
  const failed = messages.find((message) => message.type === 'failed')
  if (failed) throw new Error(`native: ${failed.message}`)
  const reports = messages.filter((message) => message.type === 'phase').map((message) => message.report)
  const report = reports.find((candidate) => candidate.name === 'measure')
  const summary = nativePhaseSummary(report, plan)
  if (summary.errors + summary.mismatches + summary.unexpectedStatus > 0 || !summary.latencyMs) {
    throw new Error(`native: ${summary.errors} errors, ${summary.mismatches} mismatches, ${summary.unexpectedStatus} unexpected statuses`)
  }
  const responses = reports.reduce((sum, phase) => sum + phase.requests, 0)
  return {
    perSec: summary.requestsPerSec.mean,
    p50Ms: summary.latencyMs.p50,
    p99Ms: summary.latencyMs.p99,
    cpuUsPerResponse: cpuSec / responses * 1e6,
    negotiated: summary.protocolNegotiated ?? ''
  }
}

/** @param {number[]} latenciesMs @returns {{ p50Ms: number, p99Ms: number }} */
function percentiles (latenciesMs) {
  const sorted = latenciesMs.sort((a, b) => a - b)
  return { p50Ms: quantileSorted(sorted, 0.5), p99Ms: quantileSorted(sorted, 0.99) }
}

/**
 * h2load at the same connections and streams, its warm-up its own (--warm-up-time), every request's latency from its log file.
 * @param {string} url @returns {Promise<ToolResult>}
 */
async function runH2load (url) {
  const h2load = findExecutable('h2load')
  if (!h2load) throw new Error('h2load is not installed: apt-get install nghttp2-client')
  const dir = mkdtempSync(join(tmpdir(), 'dyno-h2load-'))
  try {
    const logFile = join(dir, 'requests.tsv')
    const { stdout, cpuSec } = await timed([h2load, '-t1', `-c${h2Connections}`, `-m${streams}`, `-D${durationSec}`,
      `--warm-up-time=${warmupSec}`, `--log-file=${logFile}`, url])
    const succeeded = Number(/(\d+) succeeded/.exec(stdout)?.[1])
    const failedCount = /(\d+) failed, (\d+) errored, (\d+) timeout/.exec(stdout)
    const non2xx = /status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(stdout)
    if (!(succeeded > 0) || !failedCount || failedCount.slice(1).some(Number) || !non2xx || non2xx.slice(1).some(Number)) {
      throw new Error(`h2load did not succeed on every request:\n${stdout}`)
    }
    const rate = Number(/finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(stdout)?.[1])
    const lines = readFileSync(logFile, 'utf8').trim().split('\n')
    const latenciesMs = lines.map((line) => Number(line.split('\t')[2]) / 1000)
    const all = lines.length
    return {
      perSec: rate,
      ...percentiles(latenciesMs),
      cpuUsPerResponse: cpuSec / all * 1e6,
      negotiated: /Application protocol: (\S+)/.exec(stdout)?.[1] ?? ''
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Bare wrk over https: a warm-up run, then the measured one with --latency for its percentiles; it checks no body.
 * @param {string} url @returns {Promise<ToolResult>}
 */
async function runWrkHttps (url) {
  const wrk = findWrk()
  if (!wrk) throw new Error('wrk is not installed: apt-get install wrk')
  const phases = []
  for (const seconds of [warmupSec, durationSec]) {
    const run = await timed([wrk, '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', url])
    const requests = Number(/(\d+) requests in/.exec(run.stdout)?.[1])
    if (!(requests > 0) || /Non-2xx|Socket errors/.test(run.stdout)) throw new Error(`wrk: ${run.stdout}`)
    phases.push({ ...run, requests })
  }
  const out = phases[1].stdout
  const at = (/** @type {string} */ percentile) => {
    const match = new RegExp(`^\\s+${percentile}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out)
    if (!match) throw new Error(`wrk printed no ${percentile}th percentile:\n${out}`)
    return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[/** @type {'us' | 'ms' | 's'} */ (match[2])]
  }
  return {
    perSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    p50Ms: at('50'),
    p99Ms: at('99'),
    cpuUsPerResponse: (phases[0].cpuSec + phases[1].cpuSec) / (phases[0].requests + phases[1].requests) * 1e6,
    negotiated: 'http/1.1 over TLS (wrk: OpenSSL)'
  }
}

/**
 * The Go client on gorilla/websocket, one message in flight per connection.
 * @param {string} url @param {string} message @returns {Promise<ToolResult>}
 */
async function runGoWebSocket (url, message) {
  const client = goBuilt({ sourceDir: join(import.meta.dirname, 'support', 'ws-echo-client'), binary: 'ws-echo-client' })
  const { stdout, cpuSec } = await timed([client, `-url=${url}`, `-connections=${connections}`, `-warmup=${warmupSec}s`,
    `-duration=${durationSec}s`, `-message=${message}`])
  const result = JSON.parse(stdout)
  if (result.errors > 0 || result.mismatches > 0 || !(result.messages > 0)) throw new Error(`ws-echo-client: ${stdout}`)
  return {
    perSec: result.messagesPerSec,
    p50Ms: result.p50Us / 1000,
    p99Ms: result.p99Us / 1000,
    // Its warm-up's messages are not counted; its CPU time is spread over the measured ones in proportion to the time.
    cpuUsPerResponse: cpuSec * durationSec / (warmupSec + durationSec) / result.messages * 1e6,
    negotiated: 'websocket (gorilla/websocket v1.5.3)'
  }
}

/**
 * A fresh launch of the SUT on its cpu serving the scenario's protocol, for one run.
 * @param {string} name @param {import('@dyno/scenarios').Scenario} scenario
 * @param {import('../src/subjects/tls/run-certificate.js').RunCertificate} certificate
 * @param {(port: number) => Promise<ToolResult>} run @returns {Promise<ToolRun>}
 */
async function launched (name, scenario, certificate, run) {
  const [sut] = await benchSuts([name])
  const where = { sutCpu, generatorCpu: Number(generatorCpu), env: protocolEnv(scenario, certificate) }
  const { result, ...launch } = await onFreshLaunch(sut, where, run)
  return { ...result, ...launch }
}

/**
 * @typedef {object} Comparison one protocol's two tools
 * @property {string} key what --only names
 * @property {string} scenario
 * @property {string} other the other tool, as the table names it
 * @property {string} settings what both ran with
 * @property {(port: number) => Promise<ToolResult>} native
 * @property {(port: number) => Promise<ToolResult>} tool
 */

/**
 * @param {import('../src/subjects/tls/run-certificate.js').RunCertificate} certificate
 * @returns {Comparison[]}
 */
function comparisons (certificate) {
  const tls = { caFile: certificate.caFile, serverName: certificate.serverName }
  const basePlan = (/** @type {string} */ scenarioName, /** @type {number} */ port, /** @type {number} */ planConnections) =>
    scenarioLoadPlan({
      port, scenario: scenarioNamed(scenarioName), connections: planConnections, pipelining: 1, warmupSec, durationSec, windowMs: 1000
    })
  const https = (/** @type {string} */ url) => url.replace(/^http:/, 'https:')
  const ws = scenarioNamed('ws-echo').websocket
  if (!ws) throw new Error('ws-echo has no websocket part')
  return [
    {
      key: 'h2',
      scenario: 'h2-json',
      other: 'h2load',
      settings: `${h2Connections} connections × ${streams} streams`,
      native: (port) => {
        const plan = basePlan('h2-json', port, h2Connections)
        return runNative({ ...plan, url: https(plan.url), protocol: 'h2', streams, tls })
      },
      tool: (port) => runH2load(https(basePlan('h2-json', port, h2Connections).url))
    },
    {
      key: 'tls',
      scenario: 'tls-json',
      other: 'wrk (https)',
      settings: `${connections} connections`,
      native: (port) => {
        const plan = basePlan('tls-json', port, connections)
        return runNative({ ...plan, url: https(plan.url), protocol: 'tls', tls })
      },
      tool: (port) => runWrkHttps(https(basePlan('tls-json', port, connections).url))
    },
    {
      key: 'ws',
      scenario: 'ws-echo',
      other: 'Go client on gorilla/websocket',
      settings: `${connections} connections, 1 message in flight on each`,
      native: (port) => runNative({
        ...basePlan('ws-echo', port, connections), protocol: 'ws', streams: 1, websocket: { message: { text: ws.text } }
      }),
      tool: (port) => runGoWebSocket(`ws://127.0.0.1:${port}${ws.path}`, ws.text)
    }
  ]
}

const integer = (/** @type {number} */ value) => Math.round(value).toLocaleString('en-US')
const ms = (/** @type {number} */ value) => value < 10 ? value.toFixed(2) : value.toFixed(1)
const describe = (/** @type {ToolRun} */ run) =>
  `${integer(run.perSec)}/s, p50 ${ms(run.p50Ms)} ms, p99 ${ms(run.p99Ms)} ms, ${run.cpuUsPerResponse.toFixed(2)} µs CPU each ` +
  `(${run.negotiated}); ${run.maxConnections} connections at most; others took ${Math.round(run.othersOnSutCpuPct)} % of the SUT's cpu, ` +
  `${Math.round(run.othersOnToolCpuPct)} % of the tool's`

const certificate = await makeRunCertificate()
/** @type {{ comparison: Comparison, sut: string, h2Picks: string, native: ToolRun[], tool: ToolRun[] }[]} */
const results = []
try {
  console.log(`SUT on cpu ${sutCpu}, tools on cpu ${generatorCpu}; ${warmupSec} s warm-up + ${durationSec} s; ${pairs} pairs, ` +
    `a fresh launch per run; native ${native.version}; certificate by ${certificate.madeBy}`)
  for (const comparison of comparisons(certificate).filter((candidate) => only.has(candidate.key))) {
    const scenario = scenarioNamed(comparison.scenario)
    let sut = String(values[comparison.key === 'tls' ? 'tls-sut' : 'ws-sut'])
    let h2Picks = ''
    if (comparison.key === 'h2') {
      // The fastest h2 SUT here, by the native engine: one run each.
      const picks = []
      for (const candidate of String(values['h2-candidates']).split(',')) {
        const run = await launched(candidate, scenario, certificate, comparison.native)
        console.log(`h2 candidate ${candidate}: ${describe(run)}`)
        picks.push({ candidate, perSec: run.perSec })
      }
      picks.sort((a, b) => b.perSec - a.perSec)
      sut = picks[0].candidate
      h2Picks = picks.map((pick) => `${pick.candidate} ${integer(pick.perSec)}`).join(', ')
    }
    /** @type {{ native: ToolRun[], tool: ToolRun[] }} */
    const runs = { native: [], tool: [] }
    for (let pair = 1; pair <= pairs; pair++) {
      for (const side of /** @type {const} */ (['native', 'tool'])) {
        const run = await launched(sut, scenario, certificate, comparison[side])
        runs[side].push(run)
        console.log(`${comparison.scenario} on ${sut} pair ${pair} ${side === 'native' ? 'native' : comparison.other}: ${describe(run)}`)
      }
    }
    results.push({ comparison, sut, h2Picks, ...runs })
  }
} finally {
  certificate.dispose()
}

const summaries = results.map(({ comparison, sut, h2Picks, native: nativeRuns, tool }) => {
  const med = (/** @type {ToolRun[]} */ runs, /** @type {'perSec' | 'p50Ms' | 'p99Ms' | 'cpuUsPerResponse'} */ field) =>
    median(runs.map((run) => run[field]))
  const ratios = nativeRuns.map((run, index) => run.perSec / tool[index].perSec)
  return {
    comparison,
    sut,
    h2Picks,
    ratio: median(ratios),
    ratios: ratios.map((value) => value.toFixed(3)).join(', '),
    nativePerSec: med(nativeRuns, 'perSec'),
    toolPerSec: med(tool, 'perSec'),
    nativeP50: med(nativeRuns, 'p50Ms'),
    toolP50: med(tool, 'p50Ms'),
    nativeP99: med(nativeRuns, 'p99Ms'),
    toolP99: med(tool, 'p99Ms'),
    nativeCpu: med(nativeRuns, 'cpuUsPerResponse'),
    toolCpu: med(tool, 'cpuUsPerResponse'),
    othersPct: Math.max(...[...nativeRuns, ...tool].map((run) => Math.max(run.othersOnSutCpuPct, run.othersOnToolCpuPct))),
    nativeNegotiated: nativeRuns[0].negotiated,
    toolNegotiated: tool[0].negotiated
  }
})
for (const row of summaries) {
  console.log(`${row.comparison.scenario} on ${row.sut}: median native / ${row.comparison.other} ${row.ratio.toFixed(3)} ` +
    `(bar ≥ 1.0: ${row.ratio >= 1 ? 'met' : 'not met'})`)
}
if (!values['no-block'] && summaries.length > 0) {
  const h2 = summaries.find((row) => row.h2Picks)
  writeMeasuredBlock({
    script: import.meta.url,
    lines: [
      `The SUT on cpu ${sutCpu}, the tool on cpu ${generatorCpu}, ${warmupSec} s warm-up + ${durationSec} s, ${pairs} pairs per protocol ` +
        `alternating the native engine (${native.version}; every status and body or echo checked; trusts only the run's certificate, ` +
        `${certificate.madeBy}) with the other tool, each run on a fresh launch of the SUT. ` +
        (h2 ? `The h2 SUT is the fastest of the candidates by the native engine, one run each (${h2.h2Picks} req/s). ` : '') +
        'h2load (nghttp2-client; counts statuses, checks no body, does not verify the certificate; its latency per request from ' +
        '`--log-file`), wrk over https (OpenSSL; checks nothing, does not verify), and a Go client on gorilla/websocket (compares every ' +
        'echo). CPU: the tool\'s user + system time per response (per message), warm-up included. Medians; ratio native / other. ' +
        'Others: the most any other program took of the SUT\'s or the tool\'s cpu in any run (the interference sampler of every dyno ' +
        'cell): figures beside a high share were measured on a busy machine.',
      '',
      '| scenario | SUT | other tool | settings | native /s | other /s | native / other (pairs) | p50 ms native / other | ' +
        'p99 ms native / other | CPU per response native / other | negotiated (native) | others |',
      '|---|---|---|---|---:|---:|---|---:|---:|---:|---|---:|',
      ...summaries.map((row) => `| ${row.comparison.scenario} | ${row.sut} | ${row.comparison.other} | ${row.comparison.settings} | ` +
        `${integer(row.nativePerSec)} | ${integer(row.toolPerSec)} | **${row.ratio.toFixed(3)}** (${row.ratios}) | ` +
        `${ms(row.nativeP50)} / ${ms(row.toolP50)} | ${ms(row.nativeP99)} / ${ms(row.toolP99)} | ` +
        `${row.nativeCpu.toFixed(2)} / ${row.toolCpu.toFixed(2)} µs | ${row.nativeNegotiated} | ${Math.round(row.othersPct)} % |`)
    ]
  })
}
