// @ts-check
// The SUT process of consecutive cells of a suite. A SUT's scenarios follow one another in a run (one round), and each used to
// pay the SUT's start and stop: most of a short cell's time outside its load. A session starts the SUT for the first cell of its
// run of scenarios and stops it after the last; it starts it again after a cell that did not end ok (a crash, wrong answers, a
// service that died), so that nothing a failure left behind reaches the next cell, and for a cell whose scenario is served in another
// protocol (PROTOCOL is read at start). `--fresh-sut` asks for one process per cell. A fresh launch is warmed over the routes of every
// cell it is to serve before the first is measured, as the run's measure does it (`warmLaunch`); a launch that exits while it is warmed
// is started again, unwarmed, for its cell, and the route it exited on is not warmed again in the run: the cell that measures that route
// finds out what it does.
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDynoError } from '../platform/errors.js'
import { failed, failedWith } from '../records/outcome.js'
import { timedStage } from '../measures/cell-context.js'
import { describeExit, startSut } from '../subjects/sut-process/start-sut.js'
import { protocolEnv, servedProtocolOf } from '../subjects/sut-process/protocol-env.js'
import { runEnv } from '../platform/env/run-env.js'
import { recordRuntimeEvents } from '../subjects/runtime-events/runtime-event-recording.js'
import { refusalReason } from '../subjects/sut-process/refusal.js'

/**
 * @typedef {import('../records/outcome.js').Outcome} Outcome
 * @typedef {import('../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../subjects/sut-process/start-sut.js').RunningSut} RunningSut
 *
 * @typedef {import('../measures/cell-context.js').RunContext} RunContext
 * @typedef {import('../measures/cell-context.js').Cell} Cell
 * @typedef {import('../measures/cell-context.js').SutProbes} SutProbes
 * @typedef {import('../measures/wall-clock/launch-warmup.js').LaunchWarmup} LaunchWarmup
 *
 * @typedef {object} SutSession
 * @property {(cell: Cell, record: ResultRecord, use: (running: RunningSut, probes: SutProbes) =>
 *   Promise<Outcome>) => Promise<Outcome>} serve runs `use` on the session's SUT, started for this cell if none runs; the record keeps the
 *   SUT's pid, ready line, how many cells it served before, and, once it ends, its exit and last stderr lines
 * @property {() => Promise<void>} end stops the SUT of the session, if one runs (the suite ended, or was interrupted)
 *
 * @typedef {object} LiveSut the session's SUT process
 * @property {string} sut @property {string} protocol @property {RunningSut} running @property {SutProbes} probes
 * @property {number} served the cells it served
 * @property {LaunchWarmup | null} launchWarmup how it was warmed before its first cell
 */

/**
 * @param {RunContext} context
 * @returns {SutSession}
 */
export function createSutSession (context) {
  /** @type {LiveSut | null} */
  let current = null
  /** @type {Set<string>} the routes a launch exited on while it was warmed: not warmed again in this run */
  const unwarmable = new Set()

  /** @param {ResultRecord | null} record the record of the cell the SUT ends in, which keeps how it ended */
  const stop = async (record) => {
    const live = current
    current = null
    return live ? stopSut(context, live, record) : null
  }

  /**
   * Starts the SUT for `cell` and, when `warm`, warms it.
   * @param {Cell} cell @param {ResultRecord} record @param {{ warm: boolean }} how
   * @returns {Promise<{ failure: Outcome } | { live: LiveSut, exitedWarming: LaunchWarmup | null }>} exitedWarming: the warm-up of a
   *   launch that exited during it (stopped, its exit in the warm-up's problem); null: it is up
   */
  const launch = async (cell, record, { warm }) => {
    const started = await startLive(context, cell, record)
    if ('failure' in started) return started
    current = started.live
    const exitedWarming = warm ? await warmLive(context, { cell, record, live: started.live, unwarmable }) : null
    if (exitedWarming) await stop(null)
    return { live: started.live, exitedWarming }
  }

  /** @param {Cell} cell @param {ResultRecord} record @returns {Promise<{ failure: Outcome } | { live: LiveSut }>} */
  const launchFor = async (cell, record) => {
    const launched = await launch(cell, record, { warm: true })
    if ('failure' in launched || !launched.exitedWarming) return launched
    // A launch that exited while it was warmed: started again, unwarmed, for this cell; what the first one said is kept.
    const again = await launch(cell, record, { warm: false })
    if ('failure' in again) return again
    again.live.launchWarmup = launched.exitedWarming
    return again
  }

  return {
    async serve (cell, record, use) {
      if (current && (current.sut !== cell.sut.label || current.protocol !== servedProtocolOf(cell.scenario))) await stop(null)
      const up = current ? { live: current } : await launchFor(cell, record)
      if ('failure' in up) return up.failure
      const { running, probes } = up.live
      noteServing(record, up.live, context.sutHost)
      up.live.served += 1
      let outcome
      /** @type {Outcome | null} */
      let stopFailure = null
      try {
        outcome = await use(running, probes)
      } finally {
        // The next cell gets this process only when this one ended well and it is still up; otherwise it is stopped here.
        const keep = cell.keepSut && outcome?.status === 'ok' && !running.hasExited() && !context.signal.aborted
        if (!keep) stopFailure = await stop(record)
        else record.sutProcess.stderrTail = running.stderr.snapshot()
      }
      // A SUT whose host was lost, or whose group outlived SIGKILL, ends the run failed, whatever it measured.
      const lost = running.lostReason()
      if (lost) return failed(`${lost}; the figures measured before are kept`, 'DYNO_ERR_HOST_LOST')
      return stopFailure ?? outcome
    },
    end: async () => { await stop(null) }
  }
}

/**
 * What watches a SUT about to start: its runtime's events, and the file its event-loop preload writes.
 * @param {RunContext} context @param {Cell} cell @returns {SutProbes}
 */
function openProbes (context, cell) {
  const runtimeEvents = recordRuntimeEvents({
    runtimeKind: cell.sut.runtime?.kind ?? cell.sut.runtimeKind,
    enabled: context.load.runtimeEvents,
    windowMs: context.load.windowMs,
    host: context.sutHost
  })
  return {
    eventLoopFile: join(tmpdir(), `dyno-event-loop-${randomUUID()}.jsonl`),
    eventLoopIntervalMs: runtimeEvents.eventLoopIntervalMs ?? undefined,
    runtimeEvents
  }
}

/** @param {SutProbes} probes */
function closeProbes (probes) {
  rmSync(probes.eventLoopFile, { force: true })
  probes.runtimeEvents.close()
}

/**
 * Starts the SUT of `cell`, watched by probes of its own; a start that failed leaves its stderr in the record.
 * @param {RunContext} context @param {Cell} cell @param {ResultRecord} record
 * @returns {Promise<{ failure: Outcome } | { live: LiveSut }>}
 */
async function startLive (context, cell, record) {
  cell.onProgress?.({ stage: 'starting' })
  const probes = openProbes(context, cell)
  const { runtimeEvents } = probes
  try {
    runtimeEvents.launched(Date.now())
    const running = await timedStage(record, 'start', () => startSut(cell.sut, {
      readyTimeoutSec: context.readyTimeoutSec,
      stopGraceSec: context.stopGraceSec,
      signal: context.signal,
      env: {
        ...runEnv(context.runId),
        ...context.services.envFor(cell.sessionServices),
        PG_POOL_SIZE: String(context.pgPoolSize),
        ...protocolEnv(cell.scenario, context.certificateOnSutHost ?? context.certificate ?? null),
        ...runtimeEvents.env
      },
      cpus: context.pinning.sutCpus,
      // The event-loop probe writes a file beside the SUT: read here only when the SUT runs here.
      eventLoopFile: context.sutHost.sharesFilesystem ? probes.eventLoopFile : null,
      eventLoopIntervalMs: probes.eventLoopIntervalMs,
      host: context.sutHost,
      runtimeArgs: runtimeEvents.args,
      onStderr: runtimeEvents.onStderr
    }))
    runtimeEvents.started({ pid: running.pid, sharesProcesses: context.sutHost.sharesProcesses, workers: cell.sut.workers })
    return { live: { sut: cell.sut.label, protocol: servedProtocolOf(cell.scenario), running, probes, served: 0, launchWarmup: null } }
  } catch (error) {
    closeProbes(probes)
    if (!isDynoError(error)) throw error
    record.sutProcess.stderrTail = /** @type {string[]} */ (error.details.stderrTail ?? [])
    return { failure: failedWith(error) }
  }
}

/**
 * Warms a fresh launch over the routes of the cells it is to serve, those no launch exited on, as the run's measure does it.
 * @param {RunContext} context
 * @param {{ cell: Cell, record: ResultRecord, live: LiveSut, unwarmable: Set<string> }} launch unwarmable: gets the route a launch
 *   exits on
 * @returns {Promise<LaunchWarmup | null>} the warm-up of a launch that exited during it, its exit in the warm-up's problem (the launch is
 *   to be stopped); null: it is up
 */
async function warmLive (context, { cell, record, live, unwarmable }) {
  if (refusalReason(live.running.ready)) return null
  const routes = cell.launchScenarios.filter((scenario) => !unwarmable.has(scenario.name) && !context.services.missingFor(scenario))
  if (routes.length === 0) return null
  cell.onProgress?.({ stage: 'warming the launch' })
  const warmed = await timedStage(record, 'launchWarmup', () => context.measure.warmLaunch(context, routes, cell.connections, live.running))
  live.launchWarmup = warmed
  if (!warmed || !live.running.hasExited()) return null
  const exit = await live.running.exited
  unwarmable.add(warmed.routes.at(-1)?.scenario ?? routes[0].name)
  return {
    ...warmed,
    problem: `${warmed.problem ?? 'the SUT exited while it was warmed'} (${describeExit(exit.code, exit.signal)}): started again, ` +
      'unwarmed, for this cell'
  }
}

/**
 * The record of a cell keeps the SUT that serves it: its pid, host, ready line, the cells it served before, and how it was warmed.
 * @param {ResultRecord} record @param {LiveSut} live @param {import('../platform/hosts/host.js').Host} host
 */
function noteServing (record, live, host) {
  record.sutProcess.pid = live.running.pid
  record.sutProcess.host = host.name
  record.sutProcess.ready = live.running.ready
  record.sutProcess.servedBefore = live.served
  if (live.launchWarmup) record.sutProcess.launchWarmup = live.launchWarmup
}

/**
 * Stops a SUT and closes its probes.
 * @param {RunContext} context @param {LiveSut} live @param {ResultRecord | null} record the record of the cell it ends in, which keeps
 *   how it ended
 * @returns {Promise<Outcome | null>} a stop that failed
 */
async function stopSut (context, { running, probes }, record) {
  /** @type {Outcome | null} */
  let outcome = null
  const stopping = async () => {
    try {
      const { forced } = await running.stop(context.stopGraceSec * 1000)
      if (record) record.sutProcess.forcedKill = forced
    } catch (error) {
      if (!isDynoError(error)) throw error
      outcome = failedWith(error)
    }
    const exit = await running.exited
    if (record) {
      record.sutProcess.exit = { code: exit.code, signal: exit.signal }
      record.sutProcess.stderrTail = running.stderr.snapshot()
    }
  }
  await (record ? timedStage(record, 'stop', stopping) : stopping())
  // After the exit: the preloads write a last line as the SUT ends.
  closeProbes(probes)
  return outcome
}
