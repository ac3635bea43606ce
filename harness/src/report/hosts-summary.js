// @ts-check
// A run across hosts, in words for the environment section of every report: each host's role, address and environment, and the
// round trip between the load host and the SUT's host as the cells measured it before their load.
import { median } from 'simple-statistics'

/**
 * @param {any} env a run's environment (run.json)
 * @param {{ link?: import('../hosts/link-rtt.js').LinkRtt }[]} records its results
 * @returns {{ hosts: string[], link: string | null }} nothing to say (empty, null) for a run on this machine alone
 */
export function describeHosts (env, records) {
  /** @type {{ name: string, role: string, address: string, fingerprint: any }[]} */
  const hosts = env.hosts ?? []
  const described = hosts.map(({ name, role, address, fingerprint: machine }) =>
    `${role === 'sut' ? 'SUT host' : 'load host'} ${name}${role === 'sut' ? ` (${address})` : ''}: ${machine.hostname}, ${machine.cpu?.model}, ` +
    `${machine.cpu?.cores} cores, kernel ${machine.os?.release}, Node ${machine.node}, commit ${String(machine.git?.commit ?? 'unknown').slice(0, 12)}`)
  const links = records.flatMap((record) => record.link ? [record.link] : [])
  if (links.length === 0) return { hosts: described, link: null }
  const medians = links.map((link) => link.medianUs)
  const p99s = links.map((link) => link.p99Us)
  return {
    hosts: described,
    link: `round trip load host → SUT host: median ${Math.round(median(medians))} µs, p99 ${Math.round(median(p99s))} µs ` +
      `(medians over ${links.length} cell${links.length === 1 ? '' : 's'} of ${links[0].samples} round trips each; ` +
      `cell medians ${Math.round(Math.min(...medians))}–${Math.round(Math.max(...medians))} µs)`
  }
}
