// @ts-check
// How much each load engine drives on this machine, against given SUTs: the measurements behind `dyno calibrate` and
// behind the engine a run chooses (engine-choice.js). On a fresh SUT per connection level, every engine installed here,
// in every way it is calibrated, drives the plaintext scenario with the run's pinning (the SUT on its cpus, the engine on
// the generator's); each measurement says how much of its cpus the engine used and whether it, not the SUT, set the
// pace (the generator-bound rule of every run), and what other programs took of the SUT's and the engine's cpus meanwhile. A level
// that other programs disturbed is measured again on a fresh SUT, as a cell is (a calibration measured beside a test suite once had
// uwebsockets at 20,000 req/s, and chose the engine of every later run from it); one still disturbed says so in its rows.
import { randomBytes } from 'node:crypto'
import { SCENARIOS } from '@dyno/scenarios'
import { DEFAULTS } from '../../../platform/defaults.js'
import { isDynoError } from '../../../platform/errors.js'
import { ENGINES } from '../../../load/engines/index.js'
import { scenarioLoadPlan } from '../../../load/load-plan.js'
import { runLoadedPhase } from '../../../load/loaded-phase.js'
import { judgeDisturbance, REMEASURES_PER_CELL } from '../../../judging/disturbance.js'
import { startSut } from '../../../subjects/sut-process/start-sut.js'
import { refusalReason } from '../../../subjects/sut-process/refusal.js'
import { runEnv } from '../../../platform/env/run-env.js'

const CALIBRATION_SCENARIO = 'plaintext'

/**
 * @typedef {object} CalibrationRow
 * @property {string} sut
 * @property {number} connections
 * @property {string} engine the engine's name
 * @property {string} label how the engine was driven (`wrk (no checks)`)
 * @property {import('../../../load/load-plan.js').PhaseSummary | null} summary the measured phase
 * @property {number | null} generatorSharePct the share of its generator cpus the engine used while measuring (100: it was the limit)
 * @property {boolean | null} generatorBound whether the engine set the pace (the rule of every run)
 * @property {string | null} error why the engine gave no figures
 * @property {string | null} disturbed what other programs took of the cpus while it measured, when more than a cell may lose; null:
 *   the cpus were the SUT's and the engine's
 *
 * @typedef {object} CalibrationPlan
 * @property {import('../../../subjects/suts/resolve-subjects.js').Subject[]} suts
 * @property {number[]} connections one measurement per level
 * @property {number} durationSec whole seconds (wrk's unit)
 * @property {number} warmupSec whole seconds, 0: none
 * @property {import('../../../platform/options/option-spec.js').OptionValues} engineOptions the values of the engines' own options, each
 *   engine reading its own
 * @property {number} readyTimeoutSec
 * @property {import('../../../platform/pinning/resolve-pinning.js').PinPlan} pinning
 * @property {readonly import('../../../load/engines/engine.js').Engine[]} [engines] default: every engine installed here
 * @property {boolean} [firstWayOnly] each engine the way a run drives it only (no `wrk (no checks)`)
 * @property {string} [runId] marks the SUT and generator processes (DYNO_RUN_ID); default: calibrate-<random>
 * @property {AbortSignal} [signal]
 */

/**
 * @param {CalibrationPlan} plan
 * @returns {Promise<CalibrationRow[]>} in the order measured; a SUT that refuses to run here (a uWS fallback) has no rows
 */
export async function calibrationRows (plan) {
  const { signal } = plan
  const scenario = SCENARIOS.find((candidate) => candidate.name === CALIBRATION_SCENARIO)
  if (!scenario) throw new Error(`the ${CALIBRATION_SCENARIO} scenario is missing`)
  const mark = runEnv(plan.runId ?? `calibrate-${randomBytes(3).toString('hex')}`)
  const calibrations = (plan.engines ?? ENGINES).filter((engine) => engine.availability().ok)
    .flatMap((engine) => (plan.firstWayOnly ? engine.calibrations.slice(0, 1) : engine.calibrations).map((way) => ({ engine, ...way })))
  /** @type {CalibrationRow[]} */
  const rows = []
  for (const sut of plan.suts) {
    for (const connections of plan.connections) {
      for (let attempt = 0; attempt <= REMEASURES_PER_CELL; attempt++) {
        if (signal?.aborted) return rows
        const level = await measureLevel(sut, connections, { plan, scenario, calibrations, mark })
        if (level === 'interrupted') return rows
        const again = attempt < REMEASURES_PER_CELL && level.some((row) => row.disturbed !== null) && !signal?.aborted
        if (!again) {
          rows.push(...level)
          break
        }
      }
    }
  }
  return rows
}

/**
 * One connection level on a fresh SUT, warmed up again by each engine: no engine inherits another's JIT state unfairly.
 * @param {import('../../../subjects/suts/resolve-subjects.js').Subject} sut @param {number} connections
 * @param {{ plan: CalibrationPlan, scenario: import('@dyno/scenarios').Scenario, calibrations: ({ engine:
 *   import('../../../load/engines/engine.js').Engine } & import('../../../load/engines/engine.js').Engine['calibrations'][number])[], mark:
 *   Record<string, string> }} context
 * @returns {Promise<CalibrationRow[] | 'interrupted'>} no rows: the SUT refuses to run here
 */
async function measureLevel (sut, connections, { plan, scenario, calibrations, mark }) {
  const { pinning, signal } = plan
  /** @type {CalibrationRow[]} */
  const rows = []
  let running
  try {
    running = await startSut(sut, {
      readyTimeoutSec: plan.readyTimeoutSec,
      stopGraceSec: DEFAULTS.stopGraceSec,
      env: mark,
      signal,
      cpus: pinning.sutCpus
    })
  } catch (error) {
    if (!isDynoError(error)) throw error
    if (error.code === 'DYNO_ERR_INTERRUPTED') return 'interrupted'
    return calibrations.map(({ engine, label }) => ({
      sut: sut.name,
      connections,
      engine: engine.name,
      label,
      summary: null,
      generatorSharePct: null,
      generatorBound: null,
      error: `${error.code}: ${error.message}`,
      disturbed: null
    }))
  }
  try {
    if (refusalReason(running.ready)) return []
    const loadPlan = scenarioLoadPlan({
      port: running.port, scenario, connections, pipelining: 1, warmupSec: plan.warmupSec, durationSec: plan.durationSec, windowMs: 1000
    })
    for (const { engine, label, start } of calibrations) {
      if (signal?.aborted || running.hasExited()) break
      const measured = await measureWith({ ...engine, start }, { plan, loadPlan, sutPgid: running.pid, env: mark })
      rows.push({ sut: sut.name, connections, engine: engine.name, label, ...measured })
    }
  } finally {
    await running.stop(DEFAULTS.stopGraceSec * 1000)
  }
  return rows
}

/**
 * Runs one engine, as one of its calibrations starts it, with the SUT and the generator sampled in each phase; the measured phase's
 * figures are the row's.
 * @param {import('../../../load/engines/engine.js').Engine} engine started as the calibration starts it
 * @param {{ plan: CalibrationPlan, loadPlan: import('../../../load/load-plan.js').LoadPlan, sutPgid: number, env: Record<string, string> }}
 *   context
 * @returns {Promise<Pick<CalibrationRow, 'summary' | 'generatorSharePct' | 'generatorBound' | 'error' | 'disturbed'>>}
 */
async function measureWith (engine, { plan, loadPlan, sutPgid, env }) {
  const { pinning } = plan
  const engineSettings = engine.settingsOf(plan.engineOptions)
  try {
    const { phases } = await runLoadedPhase({
      engine,
      engineSettings,
      plan: loadPlan,
      generatorCpus: pinning.generatorCpus,
      loadHosts: null,
      env,
      signal: plan.signal ?? new AbortController().signal,
      stopWhen: null,
      sampling: { sutPgid, sutReadGroup: null, sutHere: true, sutCpus: pinning.sutCpus, censusArgs: false, probes: null }
    })
    const summary = phases.measure ?? null
    const disturbance = judgeDisturbance(summary?.interference ?? null)
    const disturbed = disturbance?.disturbed ? disturbance.detail : null
    if (!summary) {
      return { summary, generatorSharePct: null, generatorBound: null, error: 'no measurement (stopped during warmup)', disturbed }
    }
    const threads = engine.threads(loadPlan.connections, pinning.generatorCpus, engineSettings)
    const allotment = Math.min(threads, pinning.generatorCpus?.length ?? 1)
    const wrong = summary.mismatches + summary.unexpectedStatus
    return {
      summary,
      generatorSharePct: summary.generatorCpuPct == null ? null : Math.round(summary.generatorCpuPct / allotment * 10) / 10,
      generatorBound: summary.generatorBound ?? null,
      error: wrong > 0 ? `${wrong} wrong answers: not a calibration` : null,
      disturbed
    }
  } catch (error) {
    if (!isDynoError(error)) throw error
    return { summary: null, generatorSharePct: null, generatorBound: null, error: `${error.code}: ${error.message}`, disturbed: null }
  }
}
