// @ts-check
// A capacity cell: the closed-loop ceiling first (a short closed-loop phase at the cell's connections), then open-model steps at fixed
// offered rates, searched (rate-search.js) for the highest rate the SUT holds within the objective, then the connections sweep (closed
// loops at each level asked for, connection-sweep.js). Every step and level goes into the record the moment it is measured, so an
// interruption keeps all of them; every response is checked, as under any load. A SUT that exits during the sweep keeps its capacity: the
// level it exited in says so.
import { timedStage } from '../cell-context.js'
import { failed, invalid, ok } from '../../records/outcome.js'
import { describeExit } from '../../subjects/sut-process/start-sut.js'
import { nothingAnswered, underLoadProblems } from '../../judging/under-load-check.js'
import { formatInteger } from '../../platform/text/format.js'
import { roundTo } from '../../platform/util/numbers.js'
import { judgeStep, takenByOthersPct } from './capacity-step.js'
import { capacitySettingsOf } from './capacity-settings.js'
import { sweepConnections, sweepLevel } from './connection-sweep.js'
import { loadPhase } from './load-phase.js'
import { searchCapacity } from './rate-search.js'
import { objectiveRequests, stepDurationSec } from './step-length.js'

/**
 * @typedef {import('../../records/outcome.js').Outcome} Outcome
 * @typedef {import('../../load/load-plan.js').PhaseSummary} PhaseSummary
 *
 * @typedef {object} CapacityCeiling the closed-loop phase before the steps
 * @property {number} requestsPerSec @property {{ p50: number, p99: number } | null} latencyMs
 * @property {number} errors @property {number} timeouts
 * @property {number | null} sutCpuPct @property {number | null} generatorCpuPct @property {boolean} generatorBound
 *
 * @typedef {object} CapacityFigures what a capacity cell records (`capacity` of its result)
 * @property {string} objective as given, its spaces dropped and its letters in lower case (`p99<=10ms`)
 * @property {CapacityCeiling | null} ceiling null: not measured
 * @property {import('./capacity-step.js').CapacityStep[]} steps in the order they were measured
 * @property {number | null} capacityPerSec the highest offered rate held; 0: not even the lowest step; null: not known (interrupted)
 * @property {import('./rate-search.js').SearchResult['limitedBy'] | null} limitedBy
 * @property {string | null} limit what stopped it going higher, in words
 * @property {import('../../platform/resources/interference-sampler.js').InterferenceReport | null} interference the most disturbed of its
 *   phases (the ceiling's, a step's or a sweep level's): what other processes took of the cpus, as the cell's disturbance is judged;
 *   null: not read
 * @property {import('./connection-sweep.js').SweepLevel[]} [connectionSweep] the levels measured, in order; absent when none was asked for
 * @property {string | null} [sweepStopped] why the sweep stopped before its last level (the SUT exited in it); null: it did not
 */

/**
 * @typedef {ReturnType<typeof capacitySettingsOf>} CapacitySettings
 * @typedef {(load: Parameters<typeof loadPhase>[4]) => ReturnType<typeof loadPhase>} LoadPhase one load of the cell's SUT
 *
 * @typedef {object} CapacityTally the cell's figures as its phases come in
 * @property {CapacityFigures} figures
 * @property {string[]} wrongAnswers the phases whose answers were wrong, each with what was wrong
 * @property {(summary: PhaseSummary | null) => void} noteInterference keeps the phase most disturbed by other processes: the cell's
 *   disturbance is judged on it
 * @property {(name: string, summary: PhaseSummary | null) => void} judgeAnswers
 */

/**
 * @param {import('../cell-context.js').RunContext} context @param {import('../cell-context.js').Cell} cell
 * @param {import('../../subjects/sut-process/start-sut.js').RunningSut} running
 * @param {import('../../records/result-record.js').ResultRecord} record @param {import('../cell-context.js').SutProbes} probes
 * @returns {Promise<Outcome>}
 */
export async function capacityCell (context, cell, running, record, probes) {
  const settings = capacitySettingsOf(context.load)
  const tally = capacityTally(settings, cell.scenario)
  Object.assign(record, { capacity: tally.figures })
  /** @type {LoadPhase} */
  const load = (phase) => loadPhase(context, cell, running, probes, phase)
  const { stopped, sweepStarted } = await timedStage(record, 'load', async () => {
    const ceiling = await measureCeiling(load, tally, context.load)
    if (!ceiling) return { stopped: true, sweepStarted: false }
    const result = await searchSteps(load, tally, settings, ceiling.requestsPerSec)
    const { figures, wrongAnswers } = tally
    Object.assign(figures, result)
    const levels = settings.sweepConnections ?? []
    if (levels.length === 0 || result.limitedBy === 'interrupted' || wrongAnswers.length > 0 || context.signal.aborted) {
      return { stopped: false, sweepStarted: false }
    }
    await sweepConnections(levels, (connections) => measureLevel(load, tally, settings.stepSec, connections),
      (level) => figures.connectionSweep?.push(level))
    return { stopped: false, sweepStarted: true }
  })
  return capacityOutcome(tally, { running, signal: context.signal, stopped, sweepStarted })
}

/**
 * @param {CapacitySettings} settings @param {import('@dyno/scenarios').Scenario} scenario
 * @returns {CapacityTally}
 */
function capacityTally ({ objective, sweepConnections: levels = [] }, scenario) {
  /** @type {CapacityFigures} */
  const figures = {
    objective: objective.text,
    ceiling: null,
    steps: [],
    capacityPerSec: null,
    limitedBy: null,
    limit: null,
    interference: null,
    ...(levels.length > 0 ? { connectionSweep: [], sweepStopped: null } : {})
  }
  /** @type {string[]} */
  const wrongAnswers = []
  return {
    figures,
    wrongAnswers,
    noteInterference (summary) {
      const report = summary?.interference ?? null
      if (report && (takenByOthersPct(report) ?? 0) >= (takenByOthersPct(figures.interference) ?? -1)) figures.interference = report
    },
    judgeAnswers (name, summary) {
      const problem = underLoadProblems({ measure: summary }, scenario.expect.status)
      if (problem) wrongAnswers.push(`${name}: ${problem}`)
    }
  }
}

/**
 * The closed-loop ceiling: a phase at the cell's connections, with the run's warm-up and duration.
 * @param {LoadPhase} load @param {CapacityTally} tally @param {{ warmupSec: number, durationSec: number }} run the run's load
 * @returns {Promise<CapacityCeiling | null>} null: the steps may not follow (the ceiling was cut short, measured nothing or was answered
 *   wrongly)
 */
async function measureCeiling (load, { figures, wrongAnswers, noteInterference, judgeAnswers }, { warmupSec, durationSec }) {
  const { summary, cutShort } = await load({ warmupSec, durationSec, ratePerSec: null, label: 'closed-loop ceiling' })
  figures.ceiling = summary && ceilingFigures(summary)
  noteInterference(summary)
  judgeAnswers('the closed-loop ceiling', summary)
  // A closed loop in which nothing completed is no ceiling: the cell is invalid with what kept the answers from ending.
  const unanswered = cutShort || !summary ? null : nothingAnswered({ measure: summary })
  if (unanswered && wrongAnswers.length === 0) wrongAnswers.push(`the closed-loop ceiling: ${unanswered}`)
  return cutShort || wrongAnswers.length > 0 ? null : figures.ceiling
}

/**
 * The open-model steps, searched up to --max-rate or past the ceiling; a step answered wrongly ends the search as a cut-short one does.
 * Each step is measured for --step seconds, or as long as its objective's percentile needs at its rate (step-length.js), after a warm-up
 * of half --step; a step measured again keeps its earlier attempts.
 * @param {LoadPhase} load @param {CapacityTally} tally @param {CapacitySettings} settings @param {number} ceilingPerSec
 */
function searchSteps (load, tally, { objective, minRatePerSec, maxRatePerSec, stepSec }, ceilingPerSec) {
  const { figures, wrongAnswers, noteInterference, judgeAnswers } = tally
  const requests = objectiveRequests(objective)
  return searchCapacity({
    minRatePerSec,
    topPerSec: maxRatePerSec ?? ceilingPerSec,
    topIs: maxRatePerSec === null ? 'the closed-loop ceiling' : '--max-rate',
    beyondTop: maxRatePerSec === null,
    measureStep: async (offeredPerSec, attempt) => {
      const { summary, cutShort } = await load({
        warmupSec: stepSec / 2,
        durationSec: stepDurationSec({ stepSec, ratePerSec: offeredPerSec, requests }),
        ratePerSec: offeredPerSec,
        label: `${formatInteger(offeredPerSec)} req/s offered${attempt > 1 ? `, attempt ${attempt}` : ''}`
      })
      const measured = judgeStep(offeredPerSec, summary, { objective, cutShort })
      const earlier = attempt > 1 ? figures.steps.pop() : undefined
      const step = earlier ? { ...measured, attempts: [...earlier.attempts, withoutAttempts(earlier)] } : measured
      figures.steps.push(step)
      noteInterference(summary)
      judgeAnswers(`the step at ${formatInteger(offeredPerSec)} req/s`, summary)
      return wrongAnswers.length > 0 ? { ...step, cutShort: true } : step
    }
  })
}

/** @param {import('./capacity-step.js').CapacityStep} step @returns {import('./capacity-step.js').CapacityAttempt} */
function withoutAttempts (step) {
  const { attempts, ...attempt } = step
  return attempt
}

/**
 * One level of the connections sweep: a closed loop at its connections, as long as a step.
 * @param {LoadPhase} load @param {CapacityTally} tally @param {number} stepSec @param {number} connections
 */
async function measureLevel (load, { noteInterference }, stepSec, connections) {
  const { summary, cutShort } = await load({
    warmupSec: stepSec / 2, durationSec: stepSec, ratePerSec: null, connections, label: `${formatInteger(connections)} connections`
  })
  noteInterference(summary)
  return sweepLevel(connections, summary, cutShort)
}

/**
 * What the cell comes to once its load ended: a SUT that exited during the sweep keeps its capacity; one that exited before, an
 * interruption, wrong answers and a ceiling that measured nothing fail it.
 * @param {CapacityTally} tally
 * @param {{ running: import('../../subjects/sut-process/start-sut.js').RunningSut, signal: AbortSignal, stopped: boolean,
 *   sweepStarted: boolean }} end stopped: the ceiling stopped the cell before any step
 * @returns {Promise<Outcome>}
 */
async function capacityOutcome ({ figures, wrongAnswers }, { running, signal, stopped, sweepStarted }) {
  if (sweepStarted && running.hasExited() && !signal.aborted) {
    const exit = await running.exited
    const level = figures.connectionSweep?.at(-1)
    figures.sweepStopped = `the SUT exited at ${formatInteger(level?.connections ?? null)} connections ` +
      `(${describeExit(exit.code, exit.signal)}); last stderr line: ${running.stderr.format().split('\n').filter(Boolean).at(-1) ?? '-'}`
    return ok()
  }
  if (running.hasExited()) {
    const exit = await running.exited
    return failed(`the SUT exited during load (${describeExit(exit.code, exit.signal)}); last stderr lines:\n${running.stderr.format()}`,
      'DYNO_ERR_SUT_EXITED')
  }
  if (signal.aborted) {
    const levelsMeasured = figures.connectionSweep?.filter((level) => !level.cutShort).length ?? 0
    const sweepText = sweepStarted ? ` and ${levelsMeasured} level${levelsMeasured === 1 ? '' : 's'} of the connections sweep` : ''
    const stepsText = `${figures.steps.length} step${figures.steps.length === 1 ? '' : 's'}`
    return failed(`interrupted by ${String(signal.reason)} after ${stepsText}${sweepText}; the steps measured are kept`,
      'DYNO_ERR_INTERRUPTED')
  }
  if (wrongAnswers.length > 0) {
    Object.assign(figures, { capacityPerSec: null, limitedBy: null, limit: null })
    return invalid(wrongAnswers.join('; '), 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  }
  if (stopped) return failed('the closed-loop ceiling measured nothing', 'DYNO_ERR_LOAD_GENERATOR')
  return ok()
}

/** @param {PhaseSummary} summary @returns {CapacityCeiling} */
function ceilingFigures (summary) {
  return {
    requestsPerSec: roundTo(summary.requestsPerSec.mean, 1),
    latencyMs: summary.latencyMs ? { p50: summary.latencyMs.p50, p99: summary.latencyMs.p99 } : null,
    errors: summary.errors,
    timeouts: summary.timeouts,
    sutCpuPct: summary.resources?.targets.sut?.cpuPctMean ?? null,
    generatorCpuPct: summary.generatorCpuPct ?? null,
    generatorBound: summary.generatorBound ?? false
  }
}
