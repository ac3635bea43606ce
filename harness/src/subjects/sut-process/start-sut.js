// @ts-check
import { DynoError, isDynoError } from '../../platform/errors.js'
import { LineTail } from '../../platform/process/line-tail.js'
import { spawnLocalGroup } from '../../platform/hosts/local/local-host.js'
import { pinnedSpawnArgs } from '../../platform/process/pinned-spawn.js'
import { eventLoopEnv } from '../../platform/resources/event-loop-samples.js'
import { readinessOf } from './readiness.js'

export { describeExit } from './exit-text.js'

/**
 * @typedef {object} ReadyLine the JSON line a SUT prints once it listens
 * @property {'ready'} event
 * @property {number} port
 * @property {import('@dyno/scenarios').ServedProtocol} [protocol] what it serves on the port: the PROTOCOL it was asked for, or it is
 *   stopped (a line without one fails too)
 * @property {boolean} [uwsNative] uWebSockets.js SUTs: whether the native binary is loaded
 *
 * @typedef {object} RunningSut
 * @property {number} pid on its host; also the process group id
 * @property {string} address where the load host reaches it
 * @property {number} port the port it announced
 * @property {ReadyLine} ready
 * @property {LineTail} stderr
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} exited
 * @property {() => boolean} hasExited
 * @property {(graceMs: number) => Promise<{ forced: boolean }>} stop
 * @property {(() => import('../../platform/process/proc-reader.js').ProcStat[]) | null} readGroup its processes as its host last read them;
 *   null: read /proc here
 * @property {() => string | null} lostReason why its host can no longer be reached, when it cannot
 */

/** Variables that point a SUT at its data sources and its certificate: only the harness sets them, per scenario. */
const HARNESS_ONLY_VARIABLES = ['REDIS_URL', 'DATABASE_URL', 'SQLITE_PATH', 'PG_POOL_SIZE', 'WORKERS', 'TLS_CERT_FILE', 'TLS_KEY_FILE']

/**
 * Starts a SUT in its own process group on its host (this machine unless `host` says otherwise) and waits for its ready line, which
 * must announce the protocol `env.PROTOCOL` asks for (`http1` when it asks for none; protocol-env.js gives a scenario's).
 * @param {import('../suts/discover-suts.js').SutDescriptor} sut
 * @param {{ readyTimeoutSec: number, stopGraceSec: number, env?: Record<string, string>, signal?: AbortSignal,
 *   cpus?: number[] | null, eventLoopFile?: string | null, eventLoopIntervalMs?: number, host?: import('../../platform/hosts/host.js').Host
 *   | null, runtimeArgs?: string[], onStderr?: ((chunk: Buffer) => void) | null }} options cpus: pin with taskset (the host's cpus);
 *   eventLoopFile:
 *   inject the event-loop preload, writing a line every eventLoopIntervalMs; runtimeArgs: flags of the runtime, before the SUT's own
 *   arguments; onStderr: fed with everything the SUT writes to stderr
 * @returns {Promise<RunningSut>}
 * @throws {DynoError} DYNO_ERR_SUT_NOT_READY (timeout or a malformed ready line), DYNO_ERR_SUT_EXITED, DYNO_ERR_SUT_PROTOCOL (another
 *   protocol announced), DYNO_ERR_INTERRUPTED
 */
export async function startSut (
  sut,
  {
    readyTimeoutSec,
    stopGraceSec,
    env = {},
    signal,
    cpus = null,
    eventLoopFile = null,
    eventLoopIntervalMs,
    host = null,
    runtimeArgs = [],
    onStderr = null
  }
) {
  if (!sut.launch) {
    throw new DynoError(
      'DYNO_ERR_SUT_PACKAGE',
      `SUT ${sut.name} (${sut.runtimeKind}) has no resolved launch command: resolve it with resolveSubjects() first`
    )
  }
  const launchArgs = [...runtimeArgs, ...sut.launch.args]
  const onHost = host ? host.launchOn(sut.launch.command, launchArgs) : { command: sut.launch.command, args: launchArgs }
  const { command, args } = pinnedSpawnArgs(onHost.command, onHost.args, cpus)
  const probeFile = sut.launch.eventLoopProbe ? eventLoopFile : null
  const inheritedNodeOptions = env.NODE_OPTIONS ?? (host && !host.sharesProcesses ? '' : (process.env.NODE_OPTIONS ?? ''))
  const readiness = readinessOf(sut)
  const listenAddress = host?.listenAddress ?? '127.0.0.1'
  const sutEnv = {
    NODE_ENV: 'production',
    HOST: listenAddress,
    WORKERS: String(sut.workers),
    PROTOCOL: 'http1',
    ...sut.env,
    ...serviceAddresses(env, sut.serviceVariables),
    PORT: await readiness.port(host),
    // The SUT's code stays untouched: the harness preloads its event-loop probe through NODE_OPTIONS.
    ...(probeFile ? eventLoopEnv({ file: probeFile, intervalMs: eventLoopIntervalMs, inheritedNodeOptions }) : {})
  }
  /** @type {import('../../platform/hosts/host.js').HostProcess} */
  let child
  try {
    child = await (host?.spawnGroup ?? spawnLocalGroup)({
      command,
      args,
      cwd: sut.dir,
      env: sutEnv,
      // Only the harness points a SUT at its data sources, per scenario: a SUT opens only what its scenario needs.
      unsetEnv: HARNESS_ONLY_VARIABLES.filter((name) => !(name in sutEnv)),
      label: `SUT ${sut.name}`
    })
  } catch (error) {
    if (isDynoError(error)) throw error
    throw new DynoError('DYNO_ERR_SUT_EXITED', `SUT ${sut.name} could not be started: ${/** @type {Error} */ (error).message}`, {
      cause: error
    })
  }
  const stderr = new LineTail()
  child.stderr.on('data', (chunk) => {
    stderr.push(chunk)
    onStderr?.(chunk)
  })
  const stop = (/** @type {number} */ graceMs) => child.stop(graceMs)

  /** @type {ReadyLine} */
  let ready
  try {
    ready = await readiness.wait(child, { sut, stderr, readyTimeoutSec, signal, address: host?.address ?? '127.0.0.1', port: sutEnv.PORT })
    if (ready.protocol !== sutEnv.PROTOCOL) {
      throw new DynoError(
        'DYNO_ERR_SUT_PROTOCOL',
        `SUT ${sut.name} was asked to serve PROTOCOL=${sutEnv.PROTOCOL}, but its ready line announced ` +
          `${ready.protocol === undefined ? 'no protocol' : JSON.stringify(ready.protocol)}: ${JSON.stringify(ready)}`
      )
    }
  } catch (error) {
    await stop(stopGraceSec * 1000)
    throw error
  }
  // Keep draining stdout, or a chatty SUT would block on a full pipe under load.
  child.stdout.resume()
  return {
    pid: child.pid,
    address: host?.address ?? '127.0.0.1',
    port: ready.port,
    ready,
    stderr,
    exited: child.exited,
    hasExited: child.hasExited,
    stop,
    readGroup: child.readGroup,
    lostReason: child.lostReason
  }
}

/**
 * dyno's variables, with each service's address also in the variable the service's config names for it.
 * @param {Record<string, string>} env @param {Record<string, string> | undefined} renamed dyno's variable → the service's
 */
function serviceAddresses (env, renamed = {}) {
  const moved = Object.entries(renamed).filter(([given]) => env[given] !== undefined).map(([given, chosen]) => [chosen, env[given]])
  return { ...env, ...Object.fromEntries(moved) }
}
