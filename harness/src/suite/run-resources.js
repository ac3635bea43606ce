// @ts-check
// What a run holds while its cells are measured: its data services, its certificate and the copies of it where the SUTs run, and the
// sessions of its SUT processes. Each is given back in the reverse order it was had however the run ends: done, failed, or interrupted
// (Ctrl-C aborts the run's signal, and the run comes out through here).
import { runEnv } from '../platform/env/run-env.js'
import { startServices } from '../subjects/services/service-manager.js'
import { certificateOnHost } from '../subjects/tls/certificate-on-host.js'
import { makeRunCertificate } from '../subjects/tls/run-certificate.js'
import { startSpeedProbe } from '../platform/resources/speed-probe/speed-probe.js'
import { createSutSession } from './sut-session.js'

/**
 * @typedef {import('./sut-session.js').SutSession} SutSession
 *
 * @typedef {object} RunResources
 * @property {import('../subjects/services/service-manager.js').Services} services the run's data services, started once
 * @property {import('../subjects/tls/run-certificate.js').RunCertificate | null} certificate made once when a cell of the plan is served
 *   over TLS: its key in a directory only this run's user enters (subjects/tls/run-certificate.js); the SUTs get its paths, verification
 *   and the engine trust it
 * @property {{ certFile: string, keyFile: string, serverName: string } | null} certificateOnSutHost its files where the SUTs run: the
 *   same files on this machine, copies on a host of its own
 * @property {import('../platform/resources/speed-probe/speed-probe.js').SpeedProbe | null} speedProbe how fast the SUT's cpus run, read in
 *   every phase a load samples: where the SUTs run here, pinned; null elsewhere
 * @property {(context: import('../measures/cell-context.js').RunContext, how: { perCell: boolean }) => (sut: string) => SutSession}
 *   sessions the session a cell of a SUT is served by: one for each SUT of the run (a round keeps every SUT up through its blocks), or
 *   one of its own for each cell (perCell)
 *
 * @typedef {object} Scope
 * @property {<T>(resource: T, release: (resource: T) => Promise<void> | void) => T} hold keeps a resource until the scope closes
 * @property {() => Promise<void>} close releases what it holds, the last had first
 */

/**
 * Has the run's resources for `use`, and gives them back when it ends, whichever way.
 * @template T
 * @param {{ runId: string, sutHost: import('../platform/hosts/host.js').Host, scenarios: import('@dyno/scenarios').Scenario[], tls:
 *   boolean, sutCpus: number[] | null }} need tls: a cell of the plan is served over TLS; sutCpus: the cpus the SUTs are pinned to
 *   (null: not pinned)
 * @param {(resources: RunResources) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withRunResources ({ runId, sutHost, scenarios, tls, sutCpus }, use) {
  const scope = createScope()
  try {
    const services = scope.hold(
      await startServices(scenarios.flatMap((scenario) => scenario.services ?? []), { mark: runEnv(runId), host: sutHost }),
      (held) => held.stopAll()
    )
    const certificate = tls ? scope.hold(await makeRunCertificate(), (held) => held.dispose()) : null
    const files = certificate && { certFile: certificate.certFile, keyFile: certificate.keyFile }
    const onSutHost = files ? scope.hold(await certificateOnHost(files, sutHost), (held) => held.remove()) : null
    const speedProbe = sutHost.sharesProcesses && sutCpus
      ? scope.hold(await startSpeedProbe({ cpus: sutCpus, env: runEnv(runId) }), (held) => held.close())
      : null
    return await use({
      services,
      speedProbe,
      certificate,
      certificateOnSutHost: onSutHost && certificate
        ? { certFile: onSutHost.certFile, keyFile: /** @type {string} */ (onSutHost.keyFile), serverName: certificate.serverName }
        : null,
      sessions (context, { perCell }) {
        const open = () => scope.hold(createSutSession(context), (held) => held.end())
        if (perCell) return open
        /** @type {Map<string, SutSession>} */
        const bySut = new Map()
        return (sut) => {
          const session = bySut.get(sut) ?? open()
          bySut.set(sut, session)
          return session
        }
      }
    })
  } finally {
    await scope.close()
  }
}

/** @returns {Scope} */
function createScope () {
  /** @type {(() => Promise<void> | void)[]} */
  const releases = []
  return {
    hold (resource, release) {
      releases.push(() => release(resource))
      return resource
    },
    async close () {
      // A release that fails keeps none of the others from theirs; the last failure is thrown, as a `finally` would throw it.
      /** @type {{ error: unknown } | null} */
      let failure = null
      for (const release of releases.splice(0).reverse()) {
        try {
          await release()
        } catch (error) {
          failure = { error }
        }
      }
      if (failure) throw failure.error
    }
  }
}
