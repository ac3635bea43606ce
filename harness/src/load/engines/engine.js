// @ts-check
// What every load engine is to the rest of the harness. An engine is a folder here with one descriptor; the
// registry (index.js) lists the descriptors, and running, checking options, recording, calibrating and the
// reports all go through it, so adding an engine is adding a folder and a line in the registry.

/**
 * @typedef {string} EngineName what `--engine` names: an engine's `name` (the registry, index.js, lists them; no union here to edit)
 * @typedef {string} RecordedEngine what a result records: the client that sent the requests, one of an engine's `recordedNames`
 *   (undici-rate: autocannon's engine running the open-model schedule of `--rate`)
 *
 * @typedef {{ ok: true, version: string } | { ok: false, reason: string }} EngineAvailability whether the engine can run here; if not,
 *   what to install
 *
 * @typedef {Readonly<Record<string, number | string | boolean>>} EngineSettings what an engine's own options set (its `settingsOf`), handed
 *   back to it whole (its `refusal`, `threads` and the hooks it starts with) and recorded beside the run's load; no one else reads it
 *
 * @typedef {object} EngineLoad the load settings an engine is judged against before anything starts
 * @property {number[]} connections every level of the run
 * @property {number} durationSec
 * @property {number} warmupSec
 * @property {number} [launchWarmupSec] wall clock: the load on each route of a launch before its first cell (absent: none)
 * @property {number | null} ratePerSec null: closed loop
 * @property {number} [streams] streams (HTTP/2) or messages (WebSocket) in flight per connection (`--streams`); absent: 1
 * @property {EngineSettings} settings its own
 *
 * @typedef {object} EngineHooks what a started engine is told
 * @property {number} threads how many threads (or processes) drive the load
 * @property {number[] | null} [cpus] pin the engine's processes to these cpus
 * @property {Record<string, string>} [env] added to the engine's environment (DYNO_RUN_ID)
 * @property {EngineSettings} [settings] what its own options set (its `settingsOf`); absent: what they default to
 * @property {(phase: 'warmup' | 'measure') => void} [onPhase] a phase finished
 * @property {(phase: 'warmup' | 'measure') => void} [onClock] the phase's clock started, its connections up (engines that wait for
 *   them: native): what is sampled over the phase starts here
 * @property {(progress: { phase: string, elapsedSec: number, requestsPerSec: number | null }) => void} [onProgress] about once a second
 *
 * @typedef {object} LoadOutcome
 * @property {Partial<Record<'warmup' | 'measure', import('../load-plan.js').PhaseSummary>>} phases
 *
 * @typedef {object} LoadRun a started engine
 * @property {number[]} pids its processes now (for resource sampling)
 * @property {() => void} stop end the phase under way early (it is still reported) and skip the rest
 * @property {Promise<LoadOutcome>} done
 *
 * @typedef {object} LoadHost a host the load comes from
 * @property {import('../../platform/hosts/host.js').Host} host
 * @property {number[]} cpus its engine's cpus there, one thread each
 * @property {boolean} pin pin the engine to them (the host has taskset, and they are the run's generator cpus)
 *
 * @typedef {object} HostShare what one load host did in a phase
 * @property {string} name
 * @property {number} connections
 * @property {number} [ratePerSec] open model: its share of the offered rate (an equal one)
 * @property {number} threads
 * @property {number} requests
 * @property {number} errors
 * @property {number | null} generatorCpuPct its engine's CPU, in % of one core
 * @property {boolean} generatorBound its engine set the pace (resources/resource-figures.js)
 *

 * @typedef {object} Engine
 * @property {EngineName} name
 * @property {RecordedEngine[]} recordedNames what a result records as its engine when this engine sent the requests
 * @property {boolean} fastestHere the fastest client dyno has on a machine: when it sets the pace, the cell shows the limit of this
 *   machine (‡), not of a slower client (†)
 * @property {number | null} autoPreference whether `--engine auto` may choose it, and before which others (lower first: the first
 *   candidate that keeps up with the fastest SUT here is chosen, engine-choice/engine-choice.js); null: only when named
 * @property {string} description one line for `--engine`'s help: what it is and what it can do
 * @property {string[]} protocols the protocols it speaks, as a load plan and a scenario name them (`http1`, `tls`, `h2`, `h2c`, `ws`):
 *   a run of a scenario in another is refused before it starts, and `--engine auto` chooses among those that speak the run's
 * @property {number} maxStreams the most streams (HTTP/2) or messages (WebSocket) it keeps in flight on one connection (`--streams`); 1:
 *   one at a time
 * @property {() => EngineAvailability} availability asked before a run starts (and for the version a result records)
 * @property {import('../../platform/options/option-spec.js').OptionSpec[]} options the options of its own (`--wrk-threads`), which every
 *   command that runs an engine takes
 * @property {(values: import('../../platform/options/option-spec.js').OptionValues) => EngineSettings} settingsOf its settings from the
 *   parsed values of its options
 * @property {(load: EngineLoad) => string | null} refusal why these settings cannot run on this engine, naming the option; null: they can
 * @property {(connections: number, generatorCpus: number[] | null, settings: EngineSettings) => number} threads how many threads drive
 *   `connections` on these cpus
 * @property {(plan: import('../load-plan.js').LoadPlan, hooks: EngineHooks) => LoadRun} start
 * @property {((plan: import('../load-plan.js').LoadPlan, loadHosts: LoadHost[], hooks: Omit<EngineHooks, 'threads' | 'cpus'>) => LoadRun) |
 *   null} startOnHosts the engine started on several hosts at once, each with its share of the connections, merged exactly
 *   (`--load-hosts`); null: it runs on this machine only
 * @property {(ratePerSec: number | null) => { engine: RecordedEngine, engineVersion: string }} recordedAs what a result records for a run
 * @property {{ label: string, start: (plan: import('../load-plan.js').LoadPlan, hooks: EngineHooks) => LoadRun }[]} calibrations the ways
 *   `dyno calibrate` measures it (wrk: with and without its checks)
 */

/**
 * One generator thread per generator cpu (one when unpinned), never more than the connections: what autocannon
 * (one process per cpu) and the native engine (one thread per cpu) run.
 * @param {number} connections @param {number[] | null} generatorCpus
 */
export function oneThreadPerCpu (connections, generatorCpus) {
  return Math.max(1, Math.min(generatorCpus?.length ?? 1, connections))
}
