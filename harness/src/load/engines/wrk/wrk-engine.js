// @ts-check
// The wrk engine: runs a load plan (the one the autocannon worker gets) with wrk, a C load generator,
// one wrk process per phase, and gives back the same PhaseSummary per phase.
//
// What wrk checks, per response, in its Lua response(): the status (counted per status), and the body:
// - exact text: compared in Lua with the expected text;
// - JSON deep-equal: compared in Lua with the canonical JSON text; a body that differs is kept
//   (distinct bodies, with their counts) and checked here with the harness's own bodyMatches;
// - a named check (worldRow): every distinct body is kept and checked here the same way.
// At most DYNO_WRK_MAX_DISTINCT_BODIES distinct bodies are kept per thread; responses beyond count as mismatches.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { wholeNumber } from '../../../platform/options/option-parsers.js'
import { DynoError } from '../../../platform/errors.js'
import { http1Request } from '../../http1-request.js'
import { headerLines } from '../../request-headers.js'
import { loadBodyModule } from '../../../subjects/verify/body-module.js'
import { findWrk, startWrkPhase, wrkVersion } from './wrk-phase.js'
import { wrkPhaseSummary } from './wrk-summary.js'

/** Distinct bodies each thread keeps for the check here (a random row per request has 10,000). */
const MAX_DISTINCT_BODIES = 20_000

/**
 * @typedef {import('../engine.js').EngineHooks & { timeoutSec?: number, checkResponses?: boolean }} WrkOptions threads: wrk's `-t`, which
 *   must divide the connections; timeoutSec: a response slower than this is a timeout (wrk's `--timeout`; 10 s, as autocannon);
 *   checkResponses false: no Lua response() at all, wrk's top speed (calibration only: statuses and bodies are then not checked);
 *   onProgress: once a second, without a rate (wrk reports its rate only at the end)
 *
 * @typedef {object} WrkLoadOutcome
 * @property {Partial<Record<'warmup' | 'measure', import('./wrk-summary.js').WrkPhaseSummary>>} phases
 * @property {Partial<Record<'warmup' | 'measure', import('./wrk-summary.js').WrkReport>>} reports wrk's own lines, as printed
 */

/** @param {string} message */
const invalid = (message) => new DynoError('DYNO_ERR_INVALID_OPTION', message)

/**
 * The DYNO_WRK_* variables through which wrk-report.lua gets the request and the expectation.
 * @param {import('../../load-plan.js').LoadPlan} plan @param {boolean} checkResponses
 * @returns {Record<string, string>}
 */
export function scriptEnv (plan, checkResponses) {
  /** @type {Record<string, string>} */
  const env = {
    DYNO_WRK_METHOD: plan.method,
    // wrk writes Content-Length itself from the body.
    DYNO_WRK_HEADERS: headerLines(plan.headers, 'wrk', ['content-length']).map((line) => `${line}\n`).join(''),
    DYNO_WRK_PIPELINING: String(plan.pipelining),
    DYNO_WRK_CHECK: checkResponses ? '1' : '0',
    DYNO_WRK_MAX_DISTINCT_BODIES: String(MAX_DISTINCT_BODIES),
    ...bodyModeEnv(plan.expectedBody)
  }
  if (plan.body !== null) env.DYNO_WRK_BODY = plan.body
  for (const [name, value] of Object.entries(env)) {
    if (value.includes('\0')) throw invalid(`wrk: ${name} cannot carry a NUL byte`)
  }
  return env
}

/**
 * The plan's drawn requests, whole, in a file of its own that wrk-report.lua reads: each its length in bytes on a line, then its bytes.
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @returns {string} the file, in a directory of its own
 */
function writeDrawnRequests (plan) {
  const file = join(mkdtempSync(join(tmpdir(), 'dyno-wrk-requests-')), 'requests')
  const records = (plan.inTurn ?? []).map((drawn) => {
    const bytes = Buffer.from(http1Request(plan, 'wrk', drawn))
    return Buffer.concat([Buffer.from(`${bytes.length}\n`), bytes])
  })
  writeFileSync(file, Buffer.concat(records))
  return file
}

/** @param {string} file @param {number} threads wrk's `-t` @returns {Record<string, string>} */
const requestsEnv = (file, threads) => ({ DYNO_WRK_REQUESTS_FILE: file, DYNO_WRK_THREADS: String(threads) })

/** @param {import('@dyno/scenarios').BodyExpectation | null} expected @returns {Record<string, string>} */
function bodyModeEnv (expected) {
  if (!expected) return { DYNO_WRK_BODY_MODE: 'none' }
  if (expected.text !== undefined) return { DYNO_WRK_BODY_MODE: 'exact', DYNO_WRK_EXPECTED_TEXT: expected.text }
  // A named check, a schema or the service's module judges each distinct body here, once wrk has collected them.
  if (expected.json === undefined) return { DYNO_WRK_BODY_MODE: 'recheck' }
  return { DYNO_WRK_BODY_MODE: 'recheck', DYNO_WRK_EXPECTED_TEXT: JSON.stringify(expected.json) }
}

/**
 * @param {import('../../load-plan.js').LoadPlan} plan @param {number} threads @param {number} timeoutSec
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION naming what wrk cannot do
 */
function checkPlan (plan, threads, timeoutSec) {
  if (plan.ratePerSec !== undefined && plan.ratePerSec !== null) {
    throw invalid('wrk keeps every connection busy (closed loop): it cannot send at a fixed rate; use the autocannon engine\'s rate mode')
  }
  if (!/^https?:\/\//.test(plan.url)) throw invalid(`wrk: dyno sends HTTP/1.1, in cleartext or over TLS, got the URL \`${plan.url}\``)
  for (const phase of plan.phases) {
    if (!Number.isInteger(phase.durationSec) || phase.durationSec < 1) {
      throw invalid(`wrk runs whole seconds: the ${phase.name} phase must last a whole number of seconds ≥ 1, got \`${phase.durationSec}\``)
    }
  }
  if (!Number.isInteger(threads) || threads < 1 || threads > plan.connections || plan.connections % threads !== 0) {
    throw invalid(
      `wrk threads must be a whole number from 1 to the connections that divides them (${plan.connections}), got \`${threads}\``
    )
  }
  if (!Number.isInteger(timeoutSec) || timeoutSec < 1) {
    throw invalid(`wrk's timeout must be a whole number of seconds ≥ 1, got \`${timeoutSec}\``)
  }
}

/**
 * Runs the plan's phases in order, each its own wrk process (its own process group). Same shape as
 * startLoad's LoadRun: stop() cuts the phase under way short (wrk still reports it, `stoppedEarly`) and
 * skips the rest; a plan wrk cannot run, a missing wrk or a wrk that fails rejects `done` with a DynoError.
 * `pids` is the wrk process of the phase under way (a new one each phase), none between phases.
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @param {WrkOptions} options
 * @returns {{ readonly pids: number[], stop: () => void, done: Promise<WrkLoadOutcome> }}
 */
export function startWrkLoad (plan, { threads, timeoutSec = 10, checkResponses = true, env = {}, cpus = null, onPhase, onProgress }) {
  let stopRequested = false
  /** @type {import('./wrk-phase.js').WrkPhaseRun | null} */
  let current = null

  const requestsFile = plan.inTurn ? writeDrawnRequests(plan) : null
  const run = async () => {
    checkPlan(plan, threads, timeoutSec)
    const wrkPath = findWrk()
    if (!wrkPath) throw new DynoError('DYNO_ERR_LOAD_GENERATOR', 'wrk is not installed: no `wrk` on PATH (apt-get install wrk)')
    const phaseEnv = { ...env, ...scriptEnv(plan, checkResponses), ...(requestsFile ? requestsEnv(requestsFile, threads) : {}) }
    /** @type {WrkLoadOutcome} */
    const outcome = { phases: {}, reports: {} }
    for (const phase of plan.phases) {
      if (stopRequested) break
      current = startWrkPhase({
        wrkPath, url: plan.url, threads, connections: plan.connections, durationSec: phase.durationSec, timeoutSec, env: phaseEnv, cpus
      })
      let elapsedSec = 0
      const ticker = setInterval(() => onProgress?.({ phase: phase.name, elapsedSec: ++elapsedSec, requestsPerSec: null }), 1000)
      let report
      try {
        report = await current.done
      } finally {
        clearInterval(ticker)
        current = null
      }
      if (!report) break
      // The bodies wrk kept are checked here, a service's module among the checks: loaded once the phase is over, so that its start
      // waits for nothing.
      await loadBodyModule(plan.expectedBody)
      outcome.reports[phase.name] = report
      outcome.phases[phase.name] = wrkPhaseSummary(report, { ...plan, stoppedEarly: stopRequested })
      onPhase?.(phase.name)
    }
    return outcome
  }

  return {
    get pids () { return current?.pid ? [current.pid] : [] },
    stop: () => {
      stopRequested = true
      current?.stop()
    },
    done: run().finally(() => { if (requestsFile) rmSync(dirname(requestsFile), { recursive: true, force: true }) })
  }
}

/** @type {import('../engine.js').EngineAvailability | undefined} asked once: `wrk -v` starts a process */
let availability

/** wrk's threads (-t) when --engine wrk runs (dyno run, dyno calibrate). */
const DEFAULT_WRK_THREADS = 1

/** @type {import('../../../platform/options/option-spec.js').OptionSpec} */
const WRK_THREADS_OPTION = {
  field: 'wrkThreads',
  flag: '--wrk-threads <n>',
  description: 'wrk threads (-t); must divide the connections',
  parse: wholeNumber({ min: 1, max: 64 }),
  default: DEFAULT_WRK_THREADS
}

/** @param {import('../engine.js').EngineSettings} settings @returns {number} */
const wrkThreadsOf = (settings) => /** @type {number} */ (settings.wrkThreads ?? DEFAULT_WRK_THREADS)

/** @type {import('../engine.js').Engine} */
export const wrkEngine = {
  name: 'wrk',
  recordedNames: ['wrk'],
  fastestHere: false,
  autoPreference: null,
  // Debian's wrk is built with OpenSSL: an https URL is HTTP/1.1 over TLS (TLS 1.3 here, no ALPN offered; it does not check the
  // certificate, which verification did with the run's own before load).
  protocols: ['http1', 'tls'],
  maxStreams: 1,
  description: 'wrk (C; needs wrk on PATH: whole seconds, closed loop, its threads dividing the connections; no timeseries)',
  availability () {
    if (!availability) {
      const wrkPath = findWrk()
      availability = wrkPath
        ? { ok: true, version: wrkVersion(wrkPath) ?? 'wrk (version unknown)' }
        : { ok: false, reason: 'wrk is not installed: no `wrk` on PATH (apt-get install wrk)' }
    }
    return availability
  },
  options: [WRK_THREADS_OPTION],
  settingsOf: (values) => ({ wrkThreads: /** @type {number} */ (values.wrkThreads ?? DEFAULT_WRK_THREADS) }),
  refusal (load) {
    if (load.ratePerSec !== null) return '`--rate` runs the open-model schedule, not wrk: give either `--rate` or `--engine wrk`'
    for (const [flag, value] of /** @type {[string, number][]} */ ([
      ['--duration', load.durationSec], ['--warmup', load.warmupSec], ['--launch-warmup', load.launchWarmupSec ?? 0]
    ])) {
      if (!Number.isInteger(value)) return `\`${flag}\` must be whole seconds with \`--engine wrk\`, got \`${value}\``
    }
    const threads = wrkThreadsOf(load.settings)
    const uneven = load.connections.filter((level) => level % threads !== 0)
    if (uneven.length > 0) return `\`--wrk-threads\` must divide every connection level, got \`${threads}\` for ${uneven.join(', ')}`
    return null
  },
  threads: (connections, generatorCpus, settings) => wrkThreadsOf(settings),
  start: (plan, hooks) => startWrkLoad(plan, hooks),
  startOnHosts: null,
  recordedAs () {
    const found = wrkEngine.availability()
    return { engine: 'wrk', engineVersion: found.ok ? found.version : 'not installed' }
  },
  calibrations: [
    { label: 'wrk', start: (plan, hooks) => startWrkLoad(plan, hooks) },
    { label: 'wrk (no checks)', start: (plan, hooks) => startWrkLoad(plan, { ...hooks, checkResponses: false }) }
  ]
}
