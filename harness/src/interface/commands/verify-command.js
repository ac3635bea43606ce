// @ts-check
import { randomBytes } from 'node:crypto'
import { PROTOCOLS } from '@dyno/scenarios'
import { DEFAULTS } from '../../platform/defaults.js'
import { isDynoError } from '../../platform/errors.js'
import { startSut } from '../../subjects/sut-process/start-sut.js'
import { subjectCatalogue } from '../../subjects/suts/subject-catalogue.js'
import { selectScenarios, selectSuts } from '../../subjects/suts/select.js'
import { mapLimit } from '../../platform/util/map-limit.js'
import { describeFailedChecks, verifyScenario } from '../../subjects/verify/verify-scenario.js'
import { refusalReason } from '../../subjects/sut-process/refusal.js'
import { runEnv } from '../../platform/env/run-env.js'
import { startServices } from '../../subjects/services/service-manager.js'
import { createTable } from '../../platform/text/table.js'
import { resolveSubjects } from '../../subjects/suts/resolve-subjects.js'
import { READY_TIMEOUT } from '../options/output-options.js'
import { APP, FRAMEWORKS, RUNTIME, SCENARIOS_OPTION, WORKERS } from '../options/subject-options.js'
import { protocolEnv, servedProtocolOf } from '../../subjects/sut-process/protocol-env.js'
import { makeRunCertificate } from '../../subjects/tls/run-certificate.js'

/** SUTs verified at once: verification is light, and two cores serve two SUTs well. */
const VERIFY_CONCURRENCY = 2

/**
 * @typedef {{ scenario: string, state: 'pass' | 'fail' | 'skipped', reason: string | null }} VerifyCell
 * @typedef {{ sut: import('../../subjects/suts/resolve-subjects.js').Subject, cells: VerifyCell[] }} VerifyRow
 */

/**
 * Starts each selected SUT (on each selected runtime) once per protocol its scenarios are served in, and checks every selected scenario
 * against the process that serves it; a TLS scenario against the certificate made for this verification.
 * @param {{ frameworks: string[], scenarios: string[], runtimes: string[], workers: number, readyTimeoutSec: number,
 *   app?: import('../../subjects/apps/load-app.js').App | null }} options the parsed
 *   options of `dyno verify` (parse-command-line.js)
 * @param {{ suts?: import('../../subjects/suts/discover-suts.js').SutDescriptor[], signal?: AbortSignal, runId?: string,
 *   services?: import('../../subjects/services/service-manager.js').Services, onBuildLine?: (sut: string, line: string) => void }}
 *   [context] services: already started (and stopped) by the caller
 * @returns {Promise<VerifyRow[]>}
 */
export async function verifySuts (options, context = {}) {
  const catalogue = subjectCatalogue(options.app)
  const suts = await resolveSubjects(selectSuts(context.suts ?? catalogue.suts, options.frameworks), {
    runtimes: options.runtimes,
    workers: options.workers,
    onBuildLine: context.onBuildLine,
    signal: context.signal
  })
  const scenarios = selectScenarios(catalogue.scenarios, options.scenarios)
  const mark = runEnv(context.runId ?? `verify-${randomBytes(3).toString('hex')}`)
  const services = context.services ?? await startServices(scenarios.flatMap((scenario) => scenario.services ?? []), { mark })
  const ci = process.env.CI === 'true' || process.env.CI === '1'
  const env = {
    ...mark,
    ...services.envFor([...services.available.keys()]),
    PG_POOL_SIZE: String(DEFAULTS.pgPoolSize)
  }
  /** @type {import('../../subjects/tls/run-certificate.js').RunCertificate | null} */
  let certificate = null
  try {
    if (scenarios.some((scenario) => PROTOCOLS[scenario.protocol].tls)) certificate = await makeRunCertificate()
    const verify = (/** @type {import('../../subjects/suts/resolve-subjects.js').Subject} */ sut) =>
      verifySut(sut, scenarios, { ...options, env, services, ci, certificate, signal: context.signal })
    return await mapLimit(suts, VERIFY_CONCURRENCY, verify)
  } finally {
    certificate?.dispose()
    if (!context.services) await services.stopAll()
  }
}

/**
 * @param {import('../../subjects/suts/resolve-subjects.js').Subject} sut
 * @param {import('@dyno/scenarios').Scenario[]} scenarios
 * @param {{ readyTimeoutSec: number, env: Record<string, string>, services: import('../../subjects/services/service-manager.js').Services,
 *   ci: boolean, certificate: import('../../subjects/tls/run-certificate.js').RunCertificate | null, signal?: AbortSignal }} context
 * @returns {Promise<VerifyRow>}
 */
async function verifySut (sut, scenarios, context) {
  /** @param {VerifyCell['state']} state @param {string} reason */
  const allCells = (state, reason) => scenarios.map((scenario) => ({ scenario: scenario.name, state, reason }))
  if (sut.skipReason) return { sut, cells: allCells('skipped', sut.skipReason) }
  if (sut.buildFailure) return { sut, cells: allCells('fail', `DYNO_ERR_SUT_BUILD: ${sut.buildFailure}`) }
  // One process per protocol served (HTTP/1.1 for the plain scenarios and WebSocket, then TLS, h2, h2c), in the order they first come.
  /** @type {Map<string, import('@dyno/scenarios').Scenario[]>} */
  const byProtocol = new Map()
  for (const scenario of scenarios) {
    byProtocol.set(servedProtocolOf(scenario), [...(byProtocol.get(servedProtocolOf(scenario)) ?? []), scenario])
  }
  /** @type {Map<string, VerifyCell>} */
  const cells = new Map()
  for (const served of byProtocol.values()) {
    for (const cell of await verifyOnOneProcess(sut, served, context)) cells.set(cell.scenario, cell)
  }
  return { sut, cells: scenarios.map((scenario) => /** @type {VerifyCell} */ (cells.get(scenario.name))) }
}

/**
 * Starts the SUT for scenarios served by one process (one protocol) and checks each against it.
 * @param {import('../../subjects/suts/resolve-subjects.js').Subject} sut
 * @param {import('@dyno/scenarios').Scenario[]} scenarios
 * @param {Parameters<typeof verifySut>[2]} context
 * @returns {Promise<VerifyCell[]>}
 */
async function verifyOnOneProcess (sut, scenarios, { readyTimeoutSec, env, services, ci, certificate, signal }) {
  /**
   * A start that failed, or a process that exited meanwhile: a failure of each scenario, `skipped` where the SUT declares it cannot serve
   * it.
   */
  const eachFailed = (/** @type {'fail' | 'skipped'} */ state, /** @type {string} */ reason) =>
    scenarios.map((scenario) =>
      state === 'fail'
        ? verdict(sut, scenario.name, { performed: true, passed: false, checks: [] }, reason)
        : { scenario: scenario.name, state, reason }
    )
  let running
  try {
    running = await startSut(sut, {
      readyTimeoutSec,
      stopGraceSec: DEFAULTS.stopGraceSec,
      signal,
      env: { ...env, ...protocolEnv(scenarios[0], certificate) }
    })
  } catch (error) {
    if (!isDynoError(error)) throw error
    return eachFailed(error.code === 'DYNO_ERR_INTERRUPTED' ? 'skipped' : 'fail', `${error.code}: ${error.message}`)
  }
  try {
    const refusal = refusalReason(running.ready)
    if (refusal) return eachFailed('skipped', refusal)
    /** @type {VerifyCell[]} */
    const cells = []
    for (const scenario of scenarios) {
      // Interrupted: the exchange under way has ended, and no other begins.
      if (signal?.aborted) break
      const missing = services.missingFor(scenario)
      if (missing) {
        cells.push({ scenario: scenario.name, state: ci ? 'fail' : 'skipped', reason: `DYNO_ERR_SERVICE_UNAVAILABLE: ${missing}` })
        continue
      }
      const verification = await verifyScenario(
        { host: '127.0.0.1', port: running.port, timeoutMs: DEFAULTS.requestTimeoutSec * 1000, trust: certificate, signal },
        scenario
      )
      cells.push(verdict(sut, scenario.name, verification))
    }
    if (running.hasExited()) return eachFailed('fail', `the SUT exited during verification; last stderr lines:\n${running.stderr.format()}`)
    return cells
  } finally {
    await running.stop(DEFAULTS.stopGraceSec * 1000)
  }
}

/**
 * A scenario the SUT declares unsupported still gets checked: failing it (or the SUT refusing to start for it) is `skipped` with the
 * declared reason and what was seen; passing it is a failure, so a stale declaration cannot hide a SUT.
 * @param {import('../../subjects/suts/discover-suts.js').SutDescriptor} sut
 * @param {string} scenario
 * @param {import('../../subjects/verify/verify-scenario.js').Verification} verification
 * @param {string} [failure] why it failed, when it failed before any check (the SUT did not start for it)
 * @returns {VerifyCell}
 */
function verdict (sut, scenario, verification, failure) {
  const declared = sut.unsupportedScenarios[scenario]
  const seen = failure ?? describeFailedChecks(verification)
  if (declared === undefined) {
    return { scenario, state: verification.passed ? 'pass' : 'fail', reason: verification.passed ? null : seen }
  }
  if (verification.passed) {
    return { scenario, state: 'fail', reason: `declared unsupported in package.json (${declared}) but it passes: remove the declaration` }
  }
  return { scenario, state: 'skipped', reason: `unsupported: ${declared} (seen: ${seen})` }
}

const CELL_SYMBOL = { pass: 'pass', fail: 'FAIL', skipped: 'skip' }

/**
 * @param {VerifyRow[]} rows
 * @returns {string} the SUT × scenario matrix, then the reason of every failure and skip
 */
export function formatVerifyMatrix (rows) {
  if (rows.length === 0) return 'no SUTs selected'
  const scenarioNames = rows[0].cells.map((cell) => cell.scenario)
  const table = createTable(['SUT', ...scenarioNames])
  for (const row of rows) table.push([row.sut.label, ...row.cells.map((cell) => CELL_SYMBOL[cell.state])])
  const reasons = rows.flatMap((row) => {
    const failed = row.cells.filter((cell) => cell.state !== 'pass')
    const sameForAll = failed.length === row.cells.length && new Set(failed.map((cell) => cell.reason)).size === 1
    if (sameForAll) return [`${row.sut.label} (all scenarios, ${failed[0].state}): ${failed[0].reason}`]
    return failed.map((cell) => `${row.sut.label} × ${cell.scenario} (${cell.state}): ${cell.reason}`)
  })
  return [table.toString(), ...reasons].join('\n')
}

/** @param {VerifyRow[]} rows */
export const anyVerifyFailure = (rows) => rows.some((row) => row.cells.some((cell) => cell.state === 'fail'))

/** @type {import('../cli/command.js').Command} */
export const VERIFY_COMMAND = {
  name: 'verify',
  args: [],
  summary: 'Start each SUT and check every scenario of the contract; exit 1 on any failure',
  options: [
    APP,
    FRAMEWORKS,
    {
      ...SCENARIOS_OPTION,
      derive: (values) => subjectCatalogue(/** @type {any} */ (values.app)).scenarios.map((scenario) => scenario.name),
      defaultText: 'all (with --app, the service\'s)'
    },
    RUNTIME,
    WORKERS,
    READY_TIMEOUT
  ],
  run: async ({ options }, io, signal) => {
    const rows = await verifySuts(options.values, { signal, onBuildLine: (name, line) => io.stderr.write(`build ${name}: ${line}\n`) })
    io.stdout.write(formatVerifyMatrix(rows) + '\n')
    return anyVerifyFailure(rows) ? 1 : 0
  }
}
