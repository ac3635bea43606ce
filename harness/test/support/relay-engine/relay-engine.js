// @ts-check
// A load engine made for tests, in one folder as every engine is: `relay` hands each phase to autocannon's own start and
// records itself under its own name and version, keeping a log of the plans it was given. Nothing in dyno knows it: it reaches
// a run the way a new engine in load/engines/ would, as the descriptor a run is handed.
import { autocannonEngine } from '../../../src/load/engines/autocannon/autocannon-engine.js'
import { oneThreadPerCpu } from '../../../src/load/engines/engine.js'

/** The plans the relay was started with, in order: what a test reads to see that the run went through it. */
export const relayedPlans = /** @type {import('../../../src/load/load-plan.js').LoadPlan[]} */ ([])

/** @type {import('../../../src/load/engines/engine.js').Engine} */
export const relayEngine = {
  name: 'relay',
  recordedNames: ['relay'],
  fastestHere: false,
  autoPreference: null,
  protocols: ['http1'],
  maxStreams: 1,
  description: 'relay (a test engine: autocannon under another name)',
  availability: () => ({ ok: true, version: '0.0.1-test' }),
  options: [],
  settingsOf: () => ({}),
  refusal: (load) => load.ratePerSec === null ? null : '`--rate` is not something the relay engine runs',
  threads: (connections, generatorCpus) => oneThreadPerCpu(connections, generatorCpus),
  start: (plan, hooks) => {
    relayedPlans.push(plan)
    return autocannonEngine.start(plan, hooks)
  },
  startOnHosts: null,
  recordedAs: () => ({ engine: 'relay', engineVersion: '0.0.1-test' }),
  calibrations: []
}
