// @ts-check
// What must match between the machines of the parts of one plan. A wall-clock figure belongs to the machine that measured
// it: its cpu, cores, kernel, Node and load engine. An instruction count does not depend on the machine's speed, only on the
// code that ran: the runtime and its version, the architecture, the cpu baseline the count was pinned to, and the count's
// settings (part of the plan's identity).
import { cpuBaselineOf, describeCpuBaseline } from '../../records/count-baseline.js'

/**
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {Record<string, string>} each property a machine of a wall-clock part is judged on, as a reader would name it
 */
export function wallClockMachine (run) {
  const env = run.index.env ?? {}
  const engine = run.records.find((record) => record.load?.engine)?.load
  /** @type {Record<string, string>} */
  const machine = {
    cpu: String(env.cpu?.model ?? 'unknown'),
    cores: String(env.cpu?.cores ?? 'unknown'),
    kernel: String(env.os?.release ?? 'unknown'),
    node: String(env.node ?? 'unknown'),
    engine: engine ? `${engine.engine} ${engine.engineVersion}` : String(run.index.engineChoice?.engine ?? 'none')
  }
  for (const host of env.hosts ?? []) {
    const facts = host.fingerprint ?? {}
    machine[`${host.role} host ${host.name}`] = `${facts.cpu?.model ?? facts.cpu ?? '?'}, ${facts.cpu?.cores ?? facts.cores ?? '?'} cores, ` +
      `kernel ${facts.os?.release ?? facts.kernel ?? '?'}, Node ${facts.node ?? '?'}`
  }
  return machine
}

/**
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {Record<string, string>} what a count depends on besides the plan: the architecture, each runtime's version, and the
 *   cpu baseline its counts were pinned to (cpu-baseline.js; a result that holds no count has none to tell)
 */
export function countMachine (run) {
  const env = run.index.env ?? {}
  /** @type {Record<string, string>} */
  const machine = { arch: String(env.os?.arch ?? 'unknown') }
  for (const record of run.records) {
    if (record.sut?.runtime) machine[`runtime ${record.sut.runtime}`] = String(record.sut.runtimeVersion ?? 'unknown')
  }
  const baselines = [...new Set(run.records.map(cpuBaselineOf).filter((name) => name !== null))].map(describeCpuBaseline)
  if (baselines.length > 0) machine['cpu baseline'] = baselines.sort().join(' and ')
  return machine
}

/**
 * The properties on which machines differ, with each part's value; a part that does not have a property (a runtime none of its
 * cells ran on) differs from none.
 * @param {{ name: string, machine: Record<string, string> }[]} parts
 * @returns {{ property: string, values: { name: string, value: string }[] }[]}
 */
export function machineDifferences (parts) {
  const properties = [...new Set(parts.flatMap((part) => Object.keys(part.machine)))]
  return properties
    .map((property) => ({
      property,
      values: parts.filter((part) => property in part.machine).map((part) => ({ name: part.name, value: part.machine[property] }))
    }))
    .filter(({ values }) => new Set(values.map((entry) => entry.value)).size > 1)
}
