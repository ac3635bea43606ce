// @ts-check
// One cell of a suite from start to settled record: what stops it before its SUT starts, then on the SUT of its session the
// refusal check, verification, and the run's measure; what died or was interrupted meanwhile.
import { failed, invalid, skipped } from '../records/outcome.js'
import { createResultRecord, settleRecord } from '../records/result-record.js'
import { timedStage } from '../measures/cell-context.js'
import { refusalReason } from '../subjects/sut-process/refusal.js'
import { describeFailedChecks, verifyScenario } from '../subjects/verify/verify-scenario.js'

/**
 * @typedef {import('../records/outcome.js').Outcome} Outcome
 * @typedef {import('../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../subjects/sut-process/start-sut.js').RunningSut} RunningSut
 * @typedef {import('../measures/cell-context.js').RunContext} RunContext
 * @typedef {import('../measures/cell-context.js').Cell} Cell
 */

/**
 * One (SUT, scenario) run: on the SUT of the session (started for it, or still up from the SUT's previous scenario), verify, then
 * measure as the run's measure does. Never throws for a problem of the run itself: every step returns its outcome, and the record is
 * settled once, from the first that ended the run.
 * @param {RunContext} context
 * @param {Cell} cell
 * @param {import('./sut-session.js').SutSession} session
 * @returns {Promise<ResultRecord>}
 */
export async function runOne (context, cell, session) {
  const record = createResultRecord(context, cell)
  return settleRecord(record, await outcomeOf(context, cell, session, record))
}

/** @param {RunContext} context @param {Cell} cell @param {import('./sut-session.js').SutSession} session @param {ResultRecord} record */
async function outcomeOf (context, cell, session, record) {
  const before = notRunnable(context, cell) ?? await servicesMissing(context, cell)
  if (before) return before
  const outcome = await session.serve(cell, record, (running, probes) => measureOn(context, cell, running, record, probes))
  return (await serviceThatDied(context, cell, outcome)) ?? interruptionsDoing(context.signal, outcome)
}

/**
 * What stops a run before its SUT starts: a SUT skipped here or whose build failed, a scenario it cannot serve.
 * @param {RunContext} context @param {Cell} cell @returns {Outcome | null}
 */
function notRunnable (context, { sut, scenario }) {
  if (sut.skipReason) return skipped(sut.skipReason)
  if (sut.buildFailure) return failed(sut.buildFailure, 'DYNO_ERR_SUT_BUILD')
  const unsupported = sut.unsupportedScenarios[scenario.name]
  if (unsupported) return skipped(`${sut.name} cannot serve ${scenario.name} as the contract says: ${unsupported}`)
  return null
}

/**
 * A service the scenario needs that cannot be had (restarted first when it died in an earlier run): skipped, or failed under CI.
 * @param {RunContext} context @param {Cell} cell @returns {Promise<Outcome | null>}
 */
async function servicesMissing ({ services, ci }, { scenario }) {
  const needed = scenario.services ?? []
  const missing = services.missingFor(scenario) ?? (needed.length > 0 ? await services.ensureHealthy(needed) : null)
  if (!missing) return null
  return ci
    ? failed(`${missing} (a failure under CI=true)`, 'DYNO_ERR_SERVICE_UNAVAILABLE')
    : skipped(missing, 'DYNO_ERR_SERVICE_UNAVAILABLE')
}

/**
 * A service of the scenario that died while the SUT used it fails the run, whatever it measured.
 * @param {RunContext} context @param {Cell} cell @param {Outcome} outcome @returns {Promise<Outcome | null>}
 */
async function serviceThatDied ({ services, signal }, { scenario }, outcome) {
  if (outcome.status === 'skipped' || signal.aborted) return null
  for (const name of scenario.services ?? []) {
    const service = services.available.get(name)
    if (service && !(await service.healthy())) {
      return failed(`${name} died during the run; dyno restarts it before the next run`, 'DYNO_ERR_SERVICE_DIED')
    }
  }
  return null
}

/**
 * A second Ctrl-C kills the SUT and the generator at once: what that broke is the interruption's doing.
 * @param {AbortSignal} signal @param {Outcome} outcome @returns {Outcome}
 */
function interruptionsDoing (signal, outcome) {
  if (!signal.aborted || (outcome.status !== 'failed' && outcome.status !== 'invalid') || outcome.errorCode === 'DYNO_ERR_INTERRUPTED') {
    return outcome
  }
  return failed(`interrupted by ${String(signal.reason)}: ${outcome.reason}`, 'DYNO_ERR_INTERRUPTED')
}

/**
 * The part of a run that needs the SUT up: refusal, verification, then the measure.
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {ResultRecord} record
 * @param {import('../measures/cell-context.js').SutProbes} probes
 * @returns {Promise<Outcome>}
 */
async function measureOn (context, cell, running, record, probes) {
  const refusal = refusalReason(running.ready)
  if (refusal) return skipped(refusal, 'DYNO_ERR_SUT_REFUSED')
  const verification = context.verify ? await verified(context, cell, running, record) : null
  if (verification) return verification
  if (context.signal.aborted) return failed(`interrupted by ${String(context.signal.reason)} before load started`, 'DYNO_ERR_INTERRUPTED')
  return context.measure.measureCell(context, cell, running, record, probes)
}

/**
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {ResultRecord} record @returns {Promise<Outcome |
 *   null>}
 */
async function verified (context, { scenario, onProgress }, running, record) {
  onProgress?.({ stage: 'verifying' })
  record.verification = await timedStage(record, 'verify', () =>
    verifyScenario(
      {
        host: running.address,
        port: running.port,
        timeoutMs: context.requestTimeoutSec * 1000,
        trust: context.certificate ?? null,
        signal: context.signal
      },
      scenario
    )
  )
  if (record.verification.passed) return null
  return invalid(`DYNO_ERR_RESPONSE_MISMATCH: ${describeFailedChecks(record.verification)}`, 'DYNO_ERR_RESPONSE_MISMATCH')
}
