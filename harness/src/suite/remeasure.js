// @ts-check
// What a disturbed cell leads to. Each cell is judged as it is measured; once the plan is done the disturbed ones are measured again, so
// that a disturbance that passed (a build beside the run) has passed: a pass at a time, a bounded number of passes and of cells
// (judging/disturbance.js), and in a plan with a time budget (the default profile's rounds sized from the machine's spread) only while
// the budget lasts. Past any of these, a disturbed cell is kept and marked.
import { judgeDisturbance, remeasureBudget, REMEASURES_PER_CELL } from '../judging/disturbance.js'

/**
 * @typedef {import('../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../judging/disturbance.js').InterferenceVerdict} InterferenceVerdict
 *
 * @typedef {object} Remeasuring
 * @property {number} limit the re-measurements the run may make
 * @property {(record: ResultRecord) => void} judge records whether a measured cell was disturbed
 * @property {(run: RemeasureRun) => Promise<void>} remeasureDisturbed measures the disturbed cells again, once the plan is done
 *
 * @typedef {object} RemeasureRun
 * @property {import('./run-index.js').RunIndex} index the records kept so far, and what run.json says of the re-measurements
 * @property {import('./plan/plan-runs.js').PlannedRun[]} plan
 * @property {(position: number) => Promise<ResultRecord>} measureAgain measures a cell of the plan again, judged, in a launch of its own
 * @property {(position: number, record: ResultRecord) => void} keep writes a re-measurement that replaces the cell's record
 * @property {(line: string) => void} note a line for the user
 */

/**
 * The time budget's clock starts here: call it as the run starts.
 * @param {Pick<import('./prepare-run.js').RunSetup, 'measure' | 'load' | 'noisePlan' | 'options'>} setup
 * @param {{ cells: number, signal: AbortSignal }} run cells: the cells of the run
 * @returns {Remeasuring}
 */
export function startRemeasuring ({ measure, load, noisePlan, options }, { cells, signal }) {
  const deadlineMs = noisePlan ? performance.now() + noisePlan.budgetSec * 1000 : Infinity
  const budget = remeasureBudget(cells)
  return {
    limit: budget.limit,
    judge (record) {
      const verdict = judgeDisturbance(measure.judge.interference(record), options.disturbedAbovePct)
      record.interference = verdict && { ...verdict, earlierAttempts: [] }
    },
    async remeasureDisturbed (run) {
      /** @type {number} how long a re-measurement took, the longest so far: a launch of its own, warmed over its group's routes */
      let remeasureSec = 0
      for (let pass = 1; pass <= REMEASURES_PER_CELL; pass++) {
        const disturbed = disturbedBefore(run.index.kept(), pass)
        for (const [at, [position, previous]] of disturbed.entries()) {
          if (signal.aborted) break
          const expectedSec = Math.max(remeasureSec, measure.plan.cellSec(run.plan[position].scenario, load))
          if (performance.now() + expectedSec * 1000 > deadlineMs) {
            leftForTime(run, disturbed.length - at, noisePlan?.budgetSec ?? 0)
            break
          }
          if (!budget.take()) break
          const startedMs = performance.now()
          const was = /** @type {InterferenceVerdict} */ (previous.interference)
          run.note(`${previous.sut.label} × ${previous.scenario.name} was disturbed (${was.detail}): measuring it again`)
          const record = await run.measureAgain(position)
          remeasureSec = Math.max(remeasureSec, (performance.now() - startedMs) / 1000)
          if (pass === 1) run.index.remeasured.cells += 1
          const earlier = { ...measure.judge.attempt(previous), detail: was.detail }
          replaceIfOk(run, position, { previous, record, earlierAttempts: [...was.earlierAttempts, earlier] })
        }
      }
    }
  }
}

/**
 * The cells still disturbed after `pass - 1` re-measurements, in the plan's order.
 * @param {[number, ResultRecord][]} kept @param {number} pass @returns {[number, ResultRecord][]}
 */
const disturbedBefore = (kept, pass) => kept.filter(([, record]) => record.status === 'ok' && record.interference?.disturbed &&
  record.interference.earlierAttempts.length === pass - 1).sort((a, b) => a[0] - b[0])

/** @param {RemeasureRun} run @param {number} left @param {number} budgetSec */
function leftForTime (run, left, budgetSec) {
  run.index.remeasured.leftForTime = (run.index.remeasured.leftForTime ?? 0) + left
  run.note(`${left} disturbed cell${left === 1 ? '' : 's'} not measured again: the plan's ${Math.round(budgetSec)} s are spent; ` +
    'kept, marked disturbed')
}

/**
 * A measurement that did not end ok (interrupted, a SUT that crashed this time) does not replace one that did: the disturbed figure
 * stays, marked, and what happened is said.
 * @param {RemeasureRun} run @param {number} position
 * @param {{ previous: ResultRecord, record: ResultRecord, earlierAttempts: import('../judging/disturbance.js').EarlierAttempt[] }} again
 */
function replaceIfOk (run, position, { previous, record, earlierAttempts }) {
  if (record.status !== 'ok' || !record.interference) {
    run.note(`${previous.sut.label} × ${previous.scenario.name}: measured again, ${record.status}` +
      `${record.reason ? ` (${record.reason.split('\n')[0]})` : ''}; the disturbed measurement is kept`)
    return
  }
  record.interference.earlierAttempts = earlierAttempts
  run.keep(position, record)
}
