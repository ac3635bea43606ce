// @ts-check
// The machine a timed figure belongs to (a wall-clock cell's req/s and latency, a capacity): its cpu, cores, kernel, Node and load engine,
// and every host of a run across hosts. Parts of one plan merge as one run only from machines alike, or when the user accepts the mix.

/**
 * @param {import('../records/read-run.js').RunData} run
 * @returns {Record<string, string>} each property the machine of a timed part is judged on, as a reader would name it
 */
export function timedMachine (run) {
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
    machine[`${host.role} host ${host.name}`] =
      `${facts.cpu?.model ?? facts.cpu ?? '?'}, ${facts.cpu?.cores ?? facts.cores ?? '?'} cores, ` +
      `kernel ${facts.os?.release ?? facts.kernel ?? '?'}, Node ${facts.node ?? '?'}`
  }
  return machine
}
