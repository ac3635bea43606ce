// @ts-check
// The hosts a run names (`--sut-host`, `--load-hosts`), connected and checked: what a run there cannot do is refused before anything
// starts.
import { ENGINES } from '../load/engines/index.js'
import { DynoError } from '../platform/errors.js'
import { connectHost } from '../platform/hosts/host-kinds.js'

/**
 * @param {import('../platform/hosts/host.js').HostTarget} target @param {string[]} runtimes the run's `--runtime`
 * @returns {Promise<import('../platform/hosts/host.js').Host>}
 */
export async function connectSutHost (target, runtimes) {
  const host = await connectHost(target, 'sut')
  if (!host.sharesFilesystem && runtimes.some((runtime) => runtime !== 'node')) {
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      `\`--runtime ${runtimes.join(',')}\` with \`--sut-host ${target.url}\`: a SUT host with a ` +
        'checkout of its own runs the Node SUTs on its own Node only (`--runtime node`)'
    )
  }
  return host
}

/**
 * The load hosts, each with the cpus its engine gets: a host that is this machine the run's generator cpus, another machine every cpu
 * it has.
 * @param {import('../platform/hosts/host.js').HostTarget[]} targets
 * @param {{ given: import('../load/engines/engine.js').Engine | null, engineOption: string,
 *   pinning: import('../platform/pinning/resolve-pinning.js').PinPlan, sutHost: import('../platform/hosts/host.js').Host | null }} run
 *   given: the engine `--engine` named (null: `auto`), engineOption: as given; sutHost null: this machine
 * @returns {Promise<import('../load/engines/engine.js').LoadHost[]>}
 */
export async function connectLoadHosts (targets, { given, engineOption, pinning, sutHost }) {
  if (!given?.startOnHosts) {
    const spreading = ENGINES.filter((engine) => engine.startOnHosts).map((engine) => engine.name)
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      '`--load-hosts` runs one engine on every host, one that can spread its load over hosts: give ' +
        `${spreading.map((name) => `\`--engine ${name}\``).join(' or ')}, got \`${engineOption}\``
    )
  }
  /** @type {import('../load/engines/engine.js').LoadHost[]} */
  const loadHosts = []
  for (const target of targets) {
    const host = await connectHost(target, 'load')
    // A SUT on this machine listens on its loopback, which a host with a network of its own does not reach.
    if (!host.sharesNetwork && (sutHost?.sharesNetwork ?? true)) {
      throw new DynoError(
        'DYNO_ERR_INVALID_OPTION',
        `\`--load-hosts ${target.url}\` needs \`--sut-host\` on another machine: a SUT on this machine ` +
          `listens on its loopback, which ${target.url} does not reach`
      )
    }
    loadHosts.push(host.sharesProcesses
      ? { host, cpus: pinning.generatorCpus ?? host.machine.cpus, pin: pinning.generatorCpus !== null }
      : { host, cpus: host.machine.cpus, pin: false })
  }
  return loadHosts
}
