// @ts-check
// What a disturbed cell leads to. Each cell is judged as it is measured; once the plan is done the disturbed ones are measured again, so
// that a disturbance that passed (a build beside the run) has passed: a pass at a time, a bounded number of passes and of cells
// (judging/disturbance.js), and in a plan with a time budget (the default profile's rounds sized from the machine's spread) only while
// the budget lasts. Past any of these, a disturbed cell is kept and marked. In a run of several rounds a disturbed cell's whole block
// (every SUT of its scenario in its round) is measured again, back to back, so that the rank groups still judge its pairs within one
// block (records/aggregate-runs.js pairs the runs measured again together).
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
      /** @type {number} how long measuring a cell again took, the longest so far: a launch of its own, warmed over its group's routes */
      let remeasureSec = 0
      const wholeBlocks = options.repeats > 1
      for (let pass = 1; pass <= REMEASURES_PER_CELL; pass++) {
        const units = remeasureUnits(run, disturbedBefore(run.index.kept(), pass), wholeBlocks)
        for (const [at, unit] of units.entries()) {
          if (signal.aborted) break
          const expectedSec = unit.reduce((sum, [position]) =>
            sum + Math.max(remeasureSec, measure.plan.cellSec(run.plan[position].scenario, load)), 0)
          if (performance.now() + expectedSec * 1000 > deadlineMs) {
            const left = units.slice(at).flat().filter(([, record]) => record.interference?.disturbed).length
            leftForTime(run, left, noisePlan?.budgetSec ?? 0)
            break
          }
          if (budget.limit - budget.used < unit.length) break
          const cause = /** @type {[number, ResultRecord]} */ (unit.find(([, record]) => record.interference?.disturbed))[1]
          const was = /** @type {InterferenceVerdict} */ (cause.interference)
          const mates = unit.length > 1 ? ` with its block (${unit.length} cells)` : ''
          run.note(`${cause.sut.label} × ${cause.scenario.name} was disturbed (${was.detail}): measuring it again${mates}`)
          for (const [position, previous] of unit) {
            if (signal.aborted) break
            budget.take()
            const startedMs = performance.now()
            const record = await run.measureAgain(position)
            remeasureSec = Math.max(remeasureSec, (performance.now() - startedMs) / 1000)
            if (pass === 1) run.index.remeasured.cells += 1
            const verdict = /** @type {InterferenceVerdict | null} */ (previous.interference)
            const earlier = {
              ...measure.judge.attempt(previous),
              detail: verdict?.detail ?? null,
              ...(previous === cause || verdict?.disturbed ? {} : { withBlockOf: `${cause.sut.label} × ${cause.scenario.name}` })
            }
            replaceIfOk(run, position, { previous, record, earlierAttempts: [...(verdict?.earlierAttempts ?? []), earlier] })
          }
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

/**
 * What is measured again, a unit at a time: each disturbed cell alone, or with wholeBlocks its block's cells that ended ok (once for a
 * block with several disturbed cells), in the plan's order.
 * @param {RemeasureRun} run @param {[number, ResultRecord][]} disturbed @param {boolean} wholeBlocks
 * @returns {[number, ResultRecord][][]}
 */
function remeasureUnits (run, disturbed, wholeBlocks) {
  if (!wholeBlocks) return disturbed.map((entry) => [entry])
  const kept = run.index.kept()
  const blocks = [...new Set(disturbed.map(([position]) => run.plan[position].block))]
  return blocks.map((block) => kept.filter(([position, record]) => run.plan[position].block === block && record.status === 'ok')
    .sort((a, b) => a[0] - b[0]))
}

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
