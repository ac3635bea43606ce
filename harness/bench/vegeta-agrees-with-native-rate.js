// @ts-check
// Does the native engine's open model (`--rate`) read a SUT as Vegeta does? Vegeta (github.com/tsenart/vegeta, a constant-rate load
// tool in Go that no one here wrote) and the native engine send the same request on a fixed schedule at the same offered rates; against
// each SUT, first the native engine's closed-loop ceiling (so the offered rates are shares of what this SUT holds here, not numbers
// typed in), then per offered rate the two tools alternately (native, Vegeta, native, Vegeta: the machine's speed drifts between runs),
// each on a fresh launch of the SUT, a warm-up at the rate then a measured phase. Per run: the rate sent, the responses per second, p50
// and p99, every status and body checked (the native engine as it always does; Vegeta's responses afterwards, from its own record of
// each). Vegeta is built from the Go module proxy at a pinned version into harness/bench/.tools/ (support/go-tools.js); without `go`
// the script stops naming what to install.
//
//   node harness/bench/vegeta-agrees-with-native-rate.js [--suts node-http,express] [--shares 0.2,0.5,0.8] [--pairs 2] [--scenario json]
//     [--connections 100] [--warmup 2] [--duration 5] [--sut-cpu 0] [--generator-cpu 1] [--no-block]
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify, isDeepStrictEqual, parseArgs } from 'node:util'
import { median, sum } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { scenarioLoadPlan } from '../src/load/load-plan.js'
import { findNativeEngine } from '../src/load/engines/native/native-binary.js'
import { startNativeLoad } from '../src/load/engines/native/native-engine.js'
import { benchSuts } from './support/bench-counts.js'
import { onFreshLaunch } from './support/fresh-launch.js'
import { goInstalled } from './support/go-tools.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { VEGETA, vegetaRuntime, vegetaTargets } from './support/vegeta.js'

const execFileAsync = promisify(execFile)

const { values } = parseArgs({
  options: {
    suts: { type: 'string', default: 'node-http,express' },
    shares: { type: 'string', default: '0.2,0.5,0.8' },
    pairs: { type: 'string', default: '2' },
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
const shares = String(values.shares).split(',').map(Number)
const connections = Number(values.connections)
const warmupSec = Number(values.warmup)
const durationSec = Number(values.duration)
const sutCpu = Number(values['sut-cpu'])
const generatorCpu = Number(values['generator-cpu'])
for (const [name, value] of Object.entries({ pairs, connections, warmupSec, durationSec })) {
  if (!(value > 0 && value <= 600)) throw new Error(`--${name} must be a number from 1 to 600, got ${value}`)
}
if (!shares.every((share) => share > 0 && share <= 1)) throw new Error(`--shares must be fractions in (0, 1], got ${values.shares}`)
const scenarioFound = SCENARIOS.find((candidate) => candidate.name === values.scenario)
if (!scenarioFound) throw new Error(`no scenario ${values.scenario}`)
const scenario = scenarioFound
const expectedBody = scenario.expect.body
if (scenario.protocol !== 'http1' || !expectedBody || (expectedBody.text === undefined && expectedBody.json === undefined)) {
  throw new Error(`--scenario must be an HTTP/1.1 scenario whose body is a fixed text or JSON value, got ${scenario.name}`)
}
const native = findNativeEngine()
if (!native.ok) throw new Error(native.reason)
const vegeta = goInstalled(VEGETA)

/**
 * @typedef {{ sentPerSec: number, responsesPerSec: number, p50Ms: number, p99Ms: number, requests: number, failed: number, note: string }}
 *   ToolResult
 * @typedef {ToolResult & import('./support/fresh-launch.js').LaunchedRun} ToolRun
 */

/**
 * One plan of the scenario against a port, closed loop (ratePerSec null) or open model.
 * @param {number} port @param {number | null} ratePerSec
 */
function plan (port, ratePerSec) {
  return scenarioLoadPlan({ port, scenario, connections, pipelining: 1, warmupSec, durationSec, windowMs: 1000, ratePerSec })
}

/**
 * The native engine on the generator cpu, through the harness's own engine module.
 * @param {number} port @param {number | null} ratePerSec
 * @returns {Promise<ToolResult>}
 */
async function runNative (port, ratePerSec) {
  const outcome = await startNativeLoad(plan(port, ratePerSec), { threads: 1, cpus: [generatorCpu] }).done
  const measure = outcome.phases.measure
  if (!measure?.latencyMs) throw new Error('native: no measured phase')
  const failed = measure.errors + measure.mismatches + measure.unexpectedStatus
  return {
    sentPerSec: measure.rate?.achievedSendPerSec ?? measure.requestsPerSec.mean,
    responsesPerSec: measure.requestsPerSec.mean,
    p50Ms: measure.latencyMs.p50,
    p99Ms: measure.latencyMs.p99,
    requests: measure.requests,
    failed,
    note: measure.rate ? `max send lag ${measure.rate.maxSendLagMs} ms` : ''
  }
}

/**
 * Runs Vegeta pinned to the generator cpu.
 * @param {string[]} args @param {string} [input] @returns {Promise<string>} its standard output
 */
function runVegetaCommand (args, input = '') {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', String(generatorCpu), vegeta, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.stdin.end(input)
    const timer = setTimeout(() => child.kill('SIGKILL'), (warmupSec + durationSec + 60) * 1000)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`vegeta ${args.join(' ')} failed (${code}): ${stderr}`))
      resolve(stdout)
    })
  })
}

/**
 * The body check of the native engine: the exact text, or the same JSON value (parsed only when the text differs).
 * @param {string} body
 */
function bodyMatches (body) {
  if (expectedBody?.text !== undefined) return body === expectedBody.text
  let parsed = null
  try { parsed = JSON.parse(body) } catch {}
  return isDeepStrictEqual(parsed, expectedBody?.json)
}

/**
 * Every response Vegeta recorded, checked as the native engine checks them: the scenario's status and, parsed, its JSON body.
 * @param {string} resultsFile @returns {Promise<number>} how many failed
 */
async function vegetaFailures (resultsFile) {
  const { stdout } = await execFileAsync(vegeta, ['encode', '--to', 'json', resultsFile], { maxBuffer: 1 << 30 })
  let failures = 0
  let lastGoodBody = ''
  for (const line of stdout.split('\n')) {
    if (line === '') continue
    const result = JSON.parse(line)
    const body = Buffer.from(result.body ?? '', 'base64').toString('utf8')
    if (result.code !== scenario.expect.status || result.error) failures++
    else if (body !== lastGoodBody) {
      if (bodyMatches(body)) lastGoodBody = body
      else failures++
    }
  }
  return failures
}

/**
 * Vegeta at the rate, as its users run it: `vegeta attack -rate R/s` with its defaults (keep-alive; workers added whenever all are
 * busy, without limit; connections opened as the workers need them), a warm-up attack, then the measured one, reported by
 * `vegeta report -type json`.
 * @param {number} port @param {number} ratePerSec
 * @returns {Promise<ToolResult>}
 */
async function runVegeta (port, ratePerSec) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-vegeta-'))
  try {
    const targets = vegetaTargets(scenario, port)
    const attack = (/** @type {number} */ seconds, /** @type {string} */ file) =>
      runVegetaCommand(['attack', `-rate=${ratePerSec}/1s`, `-duration=${seconds}s`, '-timeout=10s', `-output=${file}`], targets)
    await attack(warmupSec, join(dir, 'warmup.bin'))
    const resultsFile = join(dir, 'measure.bin')
    await attack(durationSec, resultsFile)
    const report = JSON.parse(await runVegetaCommand(['report', '-type=json', resultsFile]))
    const failures = await vegetaFailures(resultsFile)
    if (failures > 0) {
      console.log(`vegeta: ${failures} of ${report.requests} responses failed or did not match: ${JSON.stringify(report.errors)}`)
    }
    return {
      sentPerSec: report.rate,
      responsesPerSec: report.throughput,
      p50Ms: report.latencies['50th'] / 1e6,
      p99Ms: report.latencies['99th'] / 1e6,
      requests: report.requests,
      failed: failures,
      note: `wait for the last ${(report.wait / 1e6).toFixed(1)} ms`
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * @typedef {{ sut: string, ceiling: number, share: number, ratePerSec: number, native: ToolRun[], vegeta: ToolRun[] }} RateRows
 */

/** @param {string} name @returns {Promise<RateRows[]>} */
async function measureSut (name) {
  const [sut] = await benchSuts([name])
  /** @param {(port: number) => Promise<ToolResult>} run @returns {Promise<ToolRun>} */
  const launched = async (run) => {
    const { result, ...launch } = await onFreshLaunch(sut, { sutCpu, generatorCpu }, run)
    return { ...result, ...launch }
  }
  const ceilingRun = await launched((port) => runNative(port, null))
  const ceiling = ceilingRun.responsesPerSec
  console.log(`${name}: native closed-loop ceiling ${integer(ceiling)} req/s (${connections} connections)`)
  const rows = []
  for (const share of shares) {
    const ratePerSec = twoDigits(ceiling * share)
    /** @type {RateRows} */
    const row = { sut: name, ceiling, share, ratePerSec, native: [], vegeta: [] }
    for (let pair = 1; pair <= pairs; pair++) {
      for (const tool of /** @type {const} */ (['native', 'vegeta'])) {
        const result = await launched((port) => tool === 'native' ? runNative(port, ratePerSec) : runVegeta(port, ratePerSec))
        row[tool].push(result)
        console.log(`${name} @ ${integer(ratePerSec)}/s pair ${pair} ${tool}: sent ${integer(result.sentPerSec)}/s, responses ` +
          `${integer(result.responsesPerSec)}/s, p50 ${result.p50Ms.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms, ` +
          `${result.failed} failed, ` +
          `${result.maxConnections} connections at most; others took ${pct(result.othersOnSutCpuPct)} of the SUT's cpu, ` +
          `${pct(result.othersOnToolCpuPct)} of the tool's (${result.note})`)
      }
    }
    rows.push(row)
  }
  return rows
}

const integer = (/** @type {number} */ value) => Math.round(value).toLocaleString('en-US')
/** A rate rounded to two significant digits (1,828 → 1,800; 43 → 43), never below 1/s: distinct shares stay distinct rates. */
const twoDigits = (/** @type {number} */ value) => {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1)
  return Math.max(1, Math.round(value / step) * step)
}
const pct = (/** @type {number} */ value) => `${Math.round(value)} %`
const ms = (/** @type {number} */ value) => value < 10 ? value.toFixed(2) : value.toFixed(1)
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (a / b).toFixed(2)
const versionLine = await vegetaRuntime(vegeta)
console.log(`${values.suts} × ${scenario.name}; offered rates ${shares.join(', ')} of each SUT's closed-loop ceiling; ` +
  `SUT on cpu ${sutCpu}, tools on cpu ${generatorCpu}; ${warmupSec} s warm-up + ${durationSec} s; ${pairs} pairs, ` +
  `a fresh launch per run; native ${native.version}; ` +
  `vegeta ${VEGETA.version} (${versionLine})`)
/** @type {RateRows[]} */
const results = []
for (const name of String(values.suts).split(',')) results.push(...await measureSut(name))

const summaries = results.map((row) => {
  const med = (/** @type {'native' | 'vegeta'} */ tool, /** @type {keyof ToolRun} */ field) =>
    median(row[tool].map((run) => Number(run[field])))
  return {
    ...row,
    nativeSent: med('native', 'sentPerSec'),
    vegetaSent: med('vegeta', 'sentPerSec'),
    nativeResponses: med('native', 'responsesPerSec'),
    vegetaResponses: med('vegeta', 'responsesPerSec'),
    nativeP50: med('native', 'p50Ms'),
    vegetaP50: med('vegeta', 'p50Ms'),
    nativeP99: med('native', 'p99Ms'),
    vegetaP99: med('vegeta', 'p99Ms'),
    nativeFailed: sum(row.native.map((run) => run.failed)),
    vegetaFailed: sum(row.vegeta.map((run) => run.failed)),
    nativeConnections: Math.max(...row.native.map((run) => run.maxConnections)),
    vegetaConnections: Math.max(...row.vegeta.map((run) => run.maxConnections)),
    othersPct: Math.max(...[...row.native, ...row.vegeta].map((run) => Math.max(run.othersOnSutCpuPct, run.othersOnToolCpuPct)))
  }
})
for (const row of summaries) {
  console.log(`${row.sut} @ ${integer(row.ratePerSec)}/s: responses/s vegeta/native ${ratio(row.vegetaResponses, row.nativeResponses)}, ` +
    `p50 ${ratio(row.vegetaP50, row.nativeP50)}, p99 ${ratio(row.vegetaP99, row.nativeP99)}`)
}
if (!values['no-block']) {
  writeMeasuredBlock({
    script: import.meta.url,
    lines: [
      `${scenario.name}, the SUT on cpu ${sutCpu}, the tool on cpu ${generatorCpu}. Per SUT, the native engine's closed-loop ceiling ` +
        `(${connections} connections), then offered rates of ${shares.map((share) => `${Math.round(share * 100)} %`).join(', ')} of it; ` +
        `at each, ${pairs} pairs alternating the native engine (${native.version}; \`--rate\`, ${connections} connections, latency from ` +
        `each intended send time) and Vegeta ${VEGETA.version} (\`vegeta attack -rate R/1s\` with its defaults; latency from each ` +
        `request's actual send), each run on a fresh launch of the SUT, ${warmupSec} s warm-up at the rate + ${durationSec} s. Every ` +
        'status and body checked for both. Medians; ratios Vegeta / native. Failed: responses with an error, a timeout (10 s), a ' +
        'wrong status or body, summed over the runs. Connections: the most the SUT held at once (from /proc/net/tcp), the most of any ' +
        'run. Others: the most any other program took of the SUT\'s or the tool\'s cpu in any run (the interference sampler of every ' +
        'dyno cell): figures beside a high share were measured on a busy machine.',
      '',
      '| SUT | offered req/s | sent/s native / Vegeta | responses/s native / Vegeta | p50 ms native / Vegeta | p99 ms native / Vegeta | ' +
        'Vegeta / native: responses, p50, p99 | failed native / Vegeta | connections native / Vegeta | others |',
      '|---|---:|---:|---:|---:|---:|---|---:|---:|---:|',
      ...summaries.map((row) => `| ${row.sut} | ${integer(row.ratePerSec)} ` +
        `(${Math.round(row.share * 100)} % of ${integer(row.ceiling)}) | ` +
        `${integer(row.nativeSent)} / ${integer(row.vegetaSent)} | ${integer(row.nativeResponses)} / ${integer(row.vegetaResponses)} | ` +
        `${ms(row.nativeP50)} / ${ms(row.vegetaP50)} | ${ms(row.nativeP99)} / ${ms(row.vegetaP99)} | ` +
        `**${ratio(row.vegetaResponses, row.nativeResponses)}**, **${ratio(row.vegetaP50, row.nativeP50)}**, ` +
        `**${ratio(row.vegetaP99, row.nativeP99)}** | ${row.nativeFailed} / ${row.vegetaFailed} | ` +
        `${row.nativeConnections} / ${row.vegetaConnections} | ${pct(row.othersPct)} |`)
    ]
  })
}
