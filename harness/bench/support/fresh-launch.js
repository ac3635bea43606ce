// @ts-check
// One run of a load tool against a fresh launch of a SUT, as the cross-check benches (a tool no one here wrote beside the native
// engine) make them: the SUT started on its cpu, the run, the SUT stopped; meanwhile what other programs took of the SUT's and the
// tool's cpus (the interference sampler of every dyno cell; the tool, started by this script, counts as dyno's own), and how many
// connections the SUT held at most (its established TCP connections, read from /proc/net/tcp and tcp6 twice a second).
import { readFileSync } from 'node:fs'
import { startInterferenceSampler } from '../../src/platform/resources/interference-sampler.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { createRunId } from '../../src/records/run-id.js'
import { startSut } from '../../src/subjects/sut-process/start-sut.js'

/** How often the SUT's connections are counted. */
const CONNECTION_COUNT_INTERVAL_MS = 500

/**
 * @typedef {object} LaunchedRun
 * @property {number} othersOnSutCpuPct what other programs took of the SUT's cpu over the run, in %
 * @property {number} othersOnToolCpuPct the same on the tool's cpu
 * @property {number} maxConnections the most established connections to the SUT's port seen at once
 */

/**
 * The established TCP connections whose local port is `port` (the server's side of each), IPv4 and IPv6.
 * @param {number} port
 */
export function establishedTo (port) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  let count = 0
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields[3] === '01' && fields[1]?.endsWith(`:${hexPort}`)) count++
    }
  }
  return count
}

/**
 * @template T
 * @param {import('../../src/subjects/suts/resolve-subjects.js').Subject} sut resolved (benchSuts)
 * @param {{ sutCpu: number, generatorCpu: number, env?: Record<string, string> }} where env: added to the run's (the protocol's)
 * @param {(port: number, running: import('../../src/subjects/sut-process/start-sut.js').RunningSut) => Promise<T>} run running: the
 *   SUT's process, for what samples it
 * @returns {Promise<{ result: T } & LaunchedRun>}
 */
export async function onFreshLaunch (sut, { sutCpu, generatorCpu, env = {} }, run) {
  const running = await startSut(sut, { readyTimeoutSec: 30, stopGraceSec: 5, env: { ...runEnv(createRunId()), ...env }, cpus: [sutCpu] })
  let maxConnections = 0
  const count = () => { maxConnections = Math.max(maxConnections, establishedTo(running.port)) }
  const counter = setInterval(count, CONNECTION_COUNT_INTERVAL_MS)
  const sampler = startInterferenceSampler({
    sutCpus: [sutCpu], generatorCpus: [generatorCpu], sutHere: true, sutPgid: running.pid, generatorPids: () => []
  }, { censusArgs: false })
  let stopped = false
  try {
    const result = await run(running.port, running)
    const report = sampler?.stop()
    stopped = true
    return {
      result,
      othersOnSutCpuPct: report?.roles.sut?.othersPct ?? NaN,
      othersOnToolCpuPct: report?.roles.generator?.othersPct ?? NaN,
      maxConnections
    }
  } finally {
    clearInterval(counter)
    if (!stopped) sampler?.stop()
    await running.stop(5000)
  }
}
