// @ts-check
// How much a cell's figure spreads on this machine: fresh launches of a few SUTs on the json scenario, interleaved (A B C A B C …), each
// measured as a round of a cell is (the same warm-up, then one round of the same length), with the run's engine and pinning; every response
// checked. The spread is the pooled variance of ln req/s between the launches of each SUT: the launch's part and the round's together, as a
// run's rounds meet them (harness/bench/noise-decomposition.js splits them, at length); the same launches give the spread of ln µs of the
// SUT's cpu per request, which steal never enters, at one cpu speed where the SUT is pinned here (the speed probe's reading of each round
// divided out, as a run's costs are: judging/speed-adjustment.js). Rounds after the first of a launch would read a SUT
// further warmed than any cell (express's second second runs at twice its first, after 0.4 s of warm-up), so each launch gives one; and
// each launch is first warmed over the routes of the default plan, as a run's launch is (launch-warmup.js), so that the round reads what a
// run's first cell of a launch reads. Each launch's cost besides its load is timed too. It is measured once per machine and kept in the
// cache directory beside the engine calibration, sealed as dyno writes it: a file edited by hand, from another cache, or measured with
// another machine, Node, engine, pinning or load is not used, and measured again with one line saying why. A launch that other programs
// disturbed is measured again, as a cell is; one still disturbed is kept, and counted in what is stored.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { mean, median, shuffle } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { DEFAULTS } from '../../../platform/defaults.js'
import { isDynoError } from '../../../platform/errors.js'
import { runEnv } from '../../../platform/env/run-env.js'
import { sealOf } from '../../../platform/util/cache-seal.js'
import { makeDirectory } from '../../../platform/util/checked-paths.js'
import { judgeDisturbance, REMEASURES_PER_CELL } from '../../../judging/disturbance.js'
import { scenarioLoadPlan } from '../../../load/load-plan.js'
import { runLoadedPhase } from '../../../load/loaded-phase.js'
import { writeJsonAtomic } from '../../../records/write-json-atomic.js'
import { discoverSuts } from '../../../subjects/suts/discover-suts.js'
import { refusalReason } from '../../../subjects/sut-process/refusal.js'
import { startSut } from '../../../subjects/sut-process/start-sut.js'
import { machineKey } from '../machine-key.js'
import { readStoredCalibration } from '../stored-calibration.js'
import { blockModel } from '../../../judging/stats/block-model.js'
import { pooledLogSpread } from './pooled-spread.js'
import { startSpeedProbe } from '../../../platform/resources/speed-probe/speed-probe.js'
import { MIN_PROBE_CHUNKS } from '../../../judging/speed-adjustment.js'

export const NOISE_CALIBRATION_FILE = 'noise-calibration.json'
/** Three SUTs of different weights (the bare core server, a fast framework, a slow one), so that the spread is not one SUT's. */
const CALIBRATION_SUTS = ['node-http', 'fastify', 'express']
const CALIBRATION_SCENARIO = 'json'
/** Fresh launches of each SUT: about 30 s on the default load, once per machine; 12 degrees of freedom over three SUTs. */
export const CALIBRATION_LAUNCHES = 5

/**
 * @typedef {object} NoiseCalibration what is stored, and what a run records of it
 * @property {string} measuredAt
 * @property {{ scenario: string, connections: number, warmupSec: number, roundSec: number, engine: string, launchWarmupSec?: number,
 *   launchScenarios?: string[] }} load how it was measured: launchWarmupSec over each of launchScenarios first (absent: a calibration
 *   of an earlier version, whose launches were not warmed)
 * @property {number} variance of ln req/s between one SUT's launches, each one round after its warm-up, pooled over the SUTs
 * @property {number} df its degrees of freedom
 * @property {number} launchOverheadSec what a launch cost besides its warm-up and rounds (the SUT's start and stop, the engine's)
 * @property {string[]} suts the SUTs measured
 * @property {Record<string, number[]>} requestsPerSec each SUT's launches' req/s, as measured (what the variance comes from, kept to be
 *   read)
 * @property {number} disturbedLaunches launches kept although other programs disturbed them (after being measured again)
 * @property {number | null} [costVariance] of ln µs of the SUT's cpu per request between the same launches, pooled as `variance` is;
 *   null or absent: not known (a calibration of an earlier version, or no launch read the SUT's cpu)
 * @property {number | null} [costDf] its degrees of freedom
 * @property {Record<string, number[]>} [cpuUsPerRequest] each SUT's launches' µs of cpu per request, as measured, or at the median
 *   speed the probe read where costAtProbedSpeed
 * @property {boolean} [costAtProbedSpeed] the costs (and costVariance) are at one cpu speed, the probe's reading of each launch divided
 *   out; false or absent: as measured (the SUT not pinned here)
 * @property {{ variance: number | null, df: number | null, costVariance: number | null, costDf: number | null }} [withinRotation] the
 *   spread of each figure left once each rotation's effect (the machine's speed while it measured every SUT once) is taken out, as a
 *   run's rank groups take out a block's: what the rounds are sized on. Null: not known; absent: a calibration of an earlier version
 *
 * @typedef {object} SutLaunches one SUT's launches in the calibration
 * @property {number[]} lnRates @property {number[]} lnCosts ln µs of the SUT's cpu per request, where it was read, less the ln of the
 *   probe's reading where the cpu's speed was probed
 * @property {Map<string, number>} rotations ln req/s by rotation @property {Map<string, number>} costRotations ln cost by rotation
 *
 * @typedef {object} NoiseSettings
 * @property {import('../../../load/engines/engine.js').Engine} engine the run's
 * @property {import('../../../platform/options/option-spec.js').OptionValues} engineOptions
 * @property {number} connections
 * @property {number} warmupSec
 * @property {number} roundSec a cell's measured seconds
 * @property {import('../../measure.js').Measure} measure the run's, which warms each launch as the run's launches are
 * @property {import('../../../records/result-record.js').LoadSettings} runLoad the run's load settings, which the warm-up of a launch reads
 * @property {string[]} launchScenarios the scenarios each launch is warmed over, those of the default plan
 * @property {import('../../../platform/pinning/resolve-pinning.js').PinPlan} pinning
 * @property {string} cacheDir
 * @property {number} readyTimeoutSec
 * @property {AbortSignal} signal
 * @property {(line: string) => void} log
 * @property {import('../../../platform/resources/speed-probe/speed-probe.js').SpeedProbe | null} [speedProbe] the calibration's own,
 *   while it measures (set by measureNoise)
 *
 * @typedef {import('../../../subjects/suts/resolve-subjects.js').Subject} Subject
 * @typedef {import('@dyno/scenarios').Scenario} Scenario
 * @typedef {import('../../../subjects/sut-process/start-sut.js').RunningSut} RunningSut
 * @typedef {import('../../../load/load-plan.js').PhaseSummary} PhaseSummary
 */

/**
 * The stored calibration when it holds for this machine and load, else measured now (and stored).
 * @param {NoiseSettings} settings
 * @returns {Promise<{ calibration: NoiseCalibration | null, file: string, reason: string | null }>} calibration null: it could not be
 *   measured (interrupted, no SUT of it runs here, a SUT answered wrongly), reason says why
 */
export async function noiseCalibration (settings) {
  const { cacheDir, engine, connections, warmupSec, roundSec, pinning, log, runLoad, launchScenarios } = settings
  const file = join(cacheDir, NOISE_CALIBRATION_FILE)
  const launchWarmupSec = Number(runLoad.launchWarmupSec ?? 0)
  const load = { scenario: CALIBRATION_SCENARIO, connections, warmupSec, roundSec, engine: engine.name, launchWarmupSec, launchScenarios }
  // `spread`: what the calibration measures; one of an earlier version, without the spread within a rotation, is measured again.
  const key = { ...machineKey(pinning, [engine]), load, spread: 'between and within rotations', cost: 'at the probed cpu speed' }
  const { calibration, note } = readNoiseCalibration(file, cacheDir, key)
  if (calibration) return { calibration, file, reason: null }
  if (note) log(`dyno: ${note}`)
  const launchSec = launchWarmupSec * launchScenarios.length + warmupSec + roundSec + 0.5
  const seconds = Math.round(CALIBRATION_SUTS.length * CALIBRATION_LAUNCHES * launchSec)
  log(`dyno: measuring how much a cell's figure spreads on this machine (once per machine, about ${seconds} s, kept in ${file})…`)
  const speedProbe = pinning.pinned && pinning.sutCpus
    ? await startSpeedProbe({ cpus: pinning.sutCpus, env: runEnv('noise-speed-probe') })
    : null
  let measured
  try {
    measured = await measureNoise({ ...settings, speedProbe }, load)
  } finally {
    await speedProbe?.close()
  }
  if ('reason' in measured) return { calibration: null, file, reason: measured.reason }
  makeDirectory(cacheDir)
  writeJsonAtomic(file, { key, calibration: measured, seal: sealOf(cacheDir, { key, calibration: measured }) })
  return { calibration: measured, file, reason: null }
}

/**
 * @param {string} file @param {string} cacheDir @param {Record<string, unknown>} key
 * @returns {{ calibration: NoiseCalibration | null, note: string | null }} note: why a file that is there is not used
 */
export function readNoiseCalibration (file, cacheDir, key) {
  const { content, note } = readStoredCalibration(file, cacheDir, { what: 'the noise calibration', key })
  if (!content) return { calibration: null, note }
  const problem = calibrationProblem(content.calibration)
  if (problem) return { calibration: null, note: `the noise calibration ${file} cannot be read (${problem}): ignored, measured again` }
  return { calibration: /** @type {NoiseCalibration} */ (content.calibration), note: null }
}

/** @param {unknown} value @returns {string | null} what is wrong with a stored calibration's figures */
function calibrationProblem (value) {
  if (!value || typeof value !== 'object') return 'calibration is not an object'
  const { variance, df, launchOverheadSec, measuredAt, disturbedLaunches } = /** @type {Record<string, unknown>} */ (value)
  const figure = (/** @type {unknown} */ number) => typeof number === 'number' && Number.isFinite(number) && number >= 0
  if (typeof measuredAt !== 'string' || Number.isNaN(Date.parse(measuredAt))) return 'measuredAt is not a date'
  if (!figure(variance)) return 'variance is not a variance'
  if (!Number.isInteger(df) || Number(df) < 1) return 'df is not a count'
  if (!figure(launchOverheadSec)) return 'launchOverheadSec is not a number of seconds'
  if (!Number.isInteger(disturbedLaunches) || Number(disturbedLaunches) < 0) return 'disturbedLaunches is not a count'
  const { costVariance, costDf } = /** @type {Record<string, unknown>} */ (value)
  if (costVariance !== undefined && costVariance !== null && !figure(costVariance)) return 'costVariance is not a variance'
  if (costDf !== undefined && costDf !== null && (!Number.isInteger(costDf) || Number(costDf) < 1)) return 'costDf is not a count'
  return null
}

/**
 * @param {NoiseSettings} settings @param {NoiseCalibration['load']} load
 * @returns {Promise<NoiseCalibration | { reason: string }>}
 */
async function measureNoise (settings, load) {
  const { signal } = settings
  const scenario = SCENARIOS.find((candidate) => candidate.name === CALIBRATION_SCENARIO)
  if (!scenario) throw new Error(`the ${CALIBRATION_SCENARIO} scenario is missing`)
  const env = runEnv(`noise-${randomBytes(3).toString('hex')}`)
  const suts = discoverSuts().filter((sut) => CALIBRATION_SUTS.includes(sut.name))
  /** @type {Map<string, SutLaunches>} */
  const data = new Map()
  /** @type {number[]} */
  const overheadsSec = []
  const refused = new Set()
  let disturbedLaunches = 0
  /** @type {number[]} */
  const lnProbes = []
  for (let launch = 0; launch < CALIBRATION_LAUNCHES; launch++) {
    for (const sut of shuffle(suts.filter((candidate) => !refused.has(candidate.name)))) {
      for (let attempt = 0; attempt <= REMEASURES_PER_CELL; attempt++) {
        if (signal.aborted) return { reason: `interrupted by ${String(signal.reason)}` }
        const startedMs = performance.now()
        const measured = await launchOnce(sut, scenario, settings, env)
        const elapsedSec = (performance.now() - startedMs) / 1000
        if ('refused' in measured) {
          refused.add(sut.name)
          break
        }
        if ('reason' in measured) return measured
        if ('nothingMeasured' in measured) {
          if (attempt < REMEASURES_PER_CELL) continue
          return { reason: measured.nothingMeasured }
        }
        if (measured.disturbed && attempt < REMEASURES_PER_CELL) continue
        if (measured.disturbed) disturbedLaunches += 1
        /** @type {SutLaunches} */
        const kept = data.get(sut.name) ?? { lnRates: [], lnCosts: [], rotations: new Map(), costRotations: new Map() }
        kept.lnRates.push(measured.lnRate)
        kept.rotations.set(String(launch), measured.lnRate)
        if (measured.lnProbe !== null) lnProbes.push(measured.lnProbe)
        if (measured.lnCost !== null) {
          kept.lnCosts.push(measured.lnCost)
          kept.costRotations.set(String(launch), measured.lnCost)
        }
        data.set(sut.name, kept)
        overheadsSec.push(Math.max(0, elapsedSec - measured.loadSec))
        break
      }
    }
  }
  if (data.size === 0) return { reason: `none of ${CALIBRATION_SUTS.join(', ')} runs here` }
  const lnReference = settings.speedProbe && lnProbes.length > 0 ? median(lnProbes) : null
  return { ...calibrationOf(data, disturbedLaunches, lnReference), load, launchOverheadSec: Math.round(mean(overheadsSec) * 1000) / 1000 }
}

/**
 * The spreads of both figures from each SUT's launches, between them and within a rotation, and the launches' figures as measured.
 * @param {Map<string, SutLaunches>} data @param {number} disturbedLaunches
 * @param {number | null} lnReference ln of the median probe reading, which the costs are shown at; null: they were not probed
 * @returns {Omit<NoiseCalibration, 'load' | 'launchOverheadSec'>}
 */
function calibrationOf (data, disturbedLaunches, lnReference) {
  const measuredSuts = [...data.keys()]
  const launches = [...data.values()]
  const rates = pooledLogSpread(launches.map((sut) => sut.lnRates))
  const costs = pooledLogSpread(launches.map((sut) => sut.lnCosts))
  const ratesWithin = blockModel(launches.map((sut) => sut.rotations))
  const costsWithin = blockModel(launches.map((sut) => sut.costRotations))
  const figures = (/** @type {'lnRates' | 'lnCosts'} */ field, /** @type {number} */ digits, shift = 0) => Object.fromEntries(
    measuredSuts.map((name) => [
      name,
      (data.get(name)?.[field] ?? []).map((value) => Math.round(Math.exp(value + shift) * 10 ** digits) / 10 ** digits)
    ]))
  return {
    measuredAt: new Date().toISOString(),
    variance: rates?.variance ?? 0,
    df: rates?.df ?? 0,
    suts: measuredSuts,
    requestsPerSec: figures('lnRates', 0),
    disturbedLaunches,
    costVariance: costs?.variance ?? null,
    costDf: costs?.df ?? null,
    withinRotation: {
      variance: ratesWithin?.variance ?? null,
      df: ratesWithin?.df ?? null,
      costVariance: costsWithin?.variance ?? null,
      costDf: costsWithin?.df ?? null
    },
    cpuUsPerRequest: figures('lnCosts', 3, lnReference ?? 0),
    costAtProbedSpeed: lnReference !== null
  }
}

/**
 * One fresh launch: started on the SUT's cpus, warmed up, one round measured, stopped.
 * @param {Subject} sut @param {Scenario} scenario @param {NoiseSettings} settings @param {Record<string, string>} env
 * @returns {Promise<{ lnRate: number, lnCost: number | null, lnProbe: number | null, disturbed: boolean, loadSec: number } |
 *   { refused: true } | { nothingMeasured: string } | { reason: string }>} lnCost: ln µs of the SUT's cpu per request, less lnProbe
 *   where the probe read the cpu's speed; null where it was not read, or the probe watched and read too little; lnProbe: ln of the
 *   probe's reading (null: not probed);
 *   loadSec: the launch's load, warm-up and round, as planned; nothingMeasured: no answer came in the round (a SUT still busy with
 *   its warm-up on a loaded machine), so the launch is measured again
 */
async function launchOnce (sut, scenario, settings, env) {
  const { signal } = settings
  const running = await startCalibrated(sut, settings, env)
  if ('reason' in running) return running
  try {
    if (refusalReason(running.ready)) return { refused: true }
    const warmed = await warmOverRoutes(sut, running, settings, env)
    if (signal.aborted) return { reason: `interrupted by ${String(signal.reason)}` }
    if (warmed?.problem) return { reason: `${sut.name} could not be warmed over its routes: ${warmed.problem}` }
    const measured = await measureRound(running, scenario, settings, env)
    if (signal.aborted) return { reason: `interrupted by ${String(signal.reason)}` }
    if (!measured || !(measured.requests > 0)) {
      const launches = REMEASURES_PER_CELL + 1
      return { nothingMeasured: `${settings.engine.name} measured no requests of ${sut.name}, ${launches} launches in a row` }
    }
    const wrong = measured.errors + measured.unexpectedStatus + measured.mismatches
    if (wrong > 0) return { reason: `${sut.name} × ${scenario.name}: ${wrong} errors or wrong answers, not a calibration` }
    const probed = (measured.cpuCost?.speedProbe?.chunks ?? 0) >= MIN_PROBE_CHUNKS
      ? Math.log(Number(measured.cpuCost?.speedProbe?.cpuUsPerChunk))
      : null
    const lnCost = (measured.cpuCost?.cpuUsPerRequest ?? 0) > 0 ? Math.log(Number(measured.cpuCost?.cpuUsPerRequest)) : null
    return {
      lnRate: Math.log(measured.requestsPerSec.mean),
      lnCost: lnCost === null || !settings.speedProbe ? lnCost : probed === null ? null : lnCost - probed,
      lnProbe: probed,
      disturbed: judgeDisturbance(measured.interference ?? null)?.disturbed ?? false,
      loadSec: (warmed ? warmed.durationSecEach * warmed.routes.length : 0) + settings.warmupSec + settings.roundSec
    }
  } catch (error) {
    if (!isDynoError(error)) throw error
    if (error.code === 'DYNO_ERR_INTERRUPTED') return { reason: `interrupted by ${String(signal.reason)}` }
    return { reason: `${sut.name}: ${error.code}: ${error.message}` }
  } finally {
    await running.stop(DEFAULTS.stopGraceSec * 1000)
  }
}

/**
 * @param {Subject} sut @param {NoiseSettings} settings @param {Record<string, string>} env
 * @returns {Promise<RunningSut | { reason: string }>} reason: it did not start
 */
async function startCalibrated (sut, { readyTimeoutSec, signal, pinning }, env) {
  try {
    return await startSut(sut, { readyTimeoutSec, stopGraceSec: DEFAULTS.stopGraceSec, env, signal, cpus: pinning.sutCpus })
  } catch (error) {
    if (!isDynoError(error)) throw error
    return { reason: `${sut.name} did not start: ${error.code}: ${error.message}` }
  }
}

/**
 * The launch warmed over the routes of the default plan it serves, by the run's measure, as a run's launch is.
 * @param {Subject} sut @param {RunningSut} running @param {NoiseSettings} settings @param {Record<string, string>} env
 */
function warmOverRoutes (sut, running, settings, env) {
  const routes = SCENARIOS.filter((candidate) => settings.launchScenarios.includes(candidate.name) &&
    !sut.unsupportedScenarios[candidate.name])
  return settings.measure.warmLaunch({
    load: settings.runLoad,
    engine: settings.engine,
    pinning: settings.pinning,
    signal: settings.signal,
    runId: env.DYNO_RUN_ID ?? 'noise',
    loadHosts: null,
    certificate: null,
    sutHost: { sharesNetwork: true }
  }, routes, settings.connections, running)
}

/**
 * One round of the calibration's scenario after its warm-up, here, with what other processes took of the cpus sampled over it.
 * @param {RunningSut} running @param {Scenario} scenario @param {NoiseSettings} settings @param {Record<string, string>} env
 * @returns {Promise<PhaseSummary | undefined>} the measured phase's; undefined: the load did not get there
 */
async function measureRound (running, scenario, settings, env) {
  const { engine, pinning, connections, warmupSec, roundSec } = settings
  const { phases } = await runLoadedPhase({
    engine,
    engineSettings: engine.settingsOf(settings.engineOptions),
    plan: scenarioLoadPlan({
      port: running.port, scenario, connections, pipelining: 1, warmupSec, durationSec: roundSec, windowMs: roundSec * 1000
    }),
    generatorCpus: pinning.generatorCpus,
    loadHosts: null,
    env,
    signal: settings.signal,
    stopWhen: null,
    sampling: {
      sutPgid: running.pid,
      sutReadGroup: running.readGroup,
      sutHere: true,
      sutCpus: pinning.sutCpus,
      censusArgs: false,
      probes: null,
      speedProbe: settings.speedProbe ?? null
    }
  })
  return phases.measure
}
