// @ts-check
// The defaults of resource sampling and of the generator-bound guard. (Candidates for
// harness/src/platform/defaults.js once they become options.)

/** How often the orchestrator samples CPU and RSS of the SUT and of the load generator. */
export const DEFAULT_RESOURCE_INTERVAL_MS = 250
/** How often the whole of /proc is scanned for new processes of a SUT's group. */
export const DEFAULT_RESCAN_MS = 1000
/** How often the interference sampler reads every cpu's counters and takes a census of every process (interference-sampler.js). */
export const DEFAULT_INTERFERENCE_INTERVAL_MS = 500
/** How many of the other processes that took the most of the measured cpus a result names. */
export const INTERFERENCE_TOP_PROCESSES = 3
/** How often the preload in a Node SUT writes one event-loop-delay line. */
export const DEFAULT_EVENT_LOOP_INTERVAL_MS = 1000
/**
 * The share of its allotment of CPU at which the load generator counts as the bottleneck: below the lowest share at
 * which autocannon fell more than 5% short of the native engine, by the run-to-run spread of the share
 * (harness/bench/generator-share-threshold.js; its figures are in docs/measuring.md, "The generator-bound guard").
 */
export const GENERATOR_BOUND_SHARE = 0.9
/**
 * Partial saturation: a generator busier than this while the SUT used less than SUT_IDLE_SHARE of its cpus set the
 * pace too (in the same measurements, the SUT's share is the other column: it stays near 1 while the generator keeps up).
 */
export const GENERATOR_BUSY_SHARE = 0.75
export const SUT_IDLE_SHARE = 0.9

/** The generator-bound rule in words, from the figures above. */
export const GENERATOR_BOUND_RULE = `the load generator used ≥ ${Math.round(GENERATOR_BOUND_SHARE * 100)}% of its cpus, ` +
  `or ≥ ${Math.round(GENERATOR_BUSY_SHARE * 100)}% while the pinned SUT used < ${Math.round(SUT_IDLE_SHARE * 100)}% of its own`

/**
 * The share of the cpus it was given (cpu-seconds / wall-seconds / cores) below which the SUT was not cpu-bound: something else (a
 * database, the generator, the network) set its pace, so its cpu cost per request says more of that wait than of its code.
 */
export const SUT_CPU_BOUND_SHARE = 0.8
