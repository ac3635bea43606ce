// @ts-check
// A run across hosts, in words for the environment section of every report: each host's role, address and environment, and the
// round trip between the load host and the SUT's host as the cells measured it before their load.
import { hostInWords } from '../../platform/hosts/host-kinds.js'
import { median } from 'simple-statistics'

/**
 * @param {any} env a run's environment (run.json)
 * @param {{ links?: import('../../platform/hosts/link-rtt.js').LinkRtt[] }[]} records its results
 * @returns {{ hosts: string[], link: string | null }} nothing to say (empty, null) for a run on this machine alone
 */
export function describeHosts (env, records) {
  /** @type {{ name: string, role: string, address: string, fingerprint: any }[]} */
  const hosts = env.hosts ?? []
  const described = hosts.map(
    ({ name, role, address, fingerprint: machine }) =>
      `${role === 'sut' ? 'SUT host' : 'load host'} ${name}${role === 'sut' ? ` (${address})` : ''}: ${machine.hostname}, ` +
        `${machine.cpu?.model}, ` +
      `${machine.cpu?.cores} cores, kernel ${machine.os?.release}, Node ${machine.node}, commit ` +
        `${String(machine.git?.commit ?? 'unknown').slice(0, 12)}`
  )
  const links = records.flatMap((record) => record.links ?? [])
  if (links.length === 0) return { hosts: described, link: null }
  const from = [...new Set(links.map((link) => link.from))]
  return {
    hosts: described,
    link: from.map((name) => {
      const measured = links.filter((link) => link.from === name)
      const medians = measured.map((link) => link.medianUs)
      return (
        `round trip ${hostInWords(name)} → SUT host: median ${Math.round(median(medians))} µs, ` +
        `p99 ${Math.round(median(measured.map((link) => link.p99Us)))} µs (medians over ` +
          `${measured.length} cell${measured.length === 1 ? '' : 's'} ` +
        `of ${measured[0].samples} round trips each; cell medians ` +
          `${Math.round(Math.min(...medians))}–${Math.round(Math.max(...medians))} µs)`
      )
    }).join('; ')
  }
}
