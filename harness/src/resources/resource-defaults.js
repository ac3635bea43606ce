// @ts-check
// The defaults of resource sampling and of the generator-bound guard. (Candidates for
// harness/src/defaults.js once they become options.)

/** How often the orchestrator samples CPU and RSS of the SUT and of the load generator. */
export const DEFAULT_RESOURCE_INTERVAL_MS = 250
/** How often the whole of /proc is scanned for new processes of a SUT's group. */
export const DEFAULT_RESCAN_MS = 1000
/** How often the preload in a Node SUT writes one event-loop-delay line. */
export const DEFAULT_EVENT_LOOP_INTERVAL_MS = 1000
/**
 * The share of its allotment of CPU at which the load generator counts as the bottleneck. Measured against the
 * native engine (harness/bench/generator-share-threshold.js, json, 100 connections, SUT and generator on one cpu
 * each): autocannon kept within 5% of it up to a share of 0.97 (node-http) and fell more than 5% short from 0.98
 * (ultimate-express 0.93×, hyper-express 0.56×, uwebsockets 0.42×); 0.9 leaves the run-to-run spread of the share
 * (±0.05) as a margin.
 */
export const GENERATOR_BOUND_SHARE = 0.9
/**
 * Partial saturation: a generator busier than this while the SUT used less than SUT_IDLE_SHARE of its cpus set the
 * pace too. Seen in the same measurements: whenever autocannon fell short the SUT used 0.58–0.91 of its cpu, and
 * never less than 0.96 when autocannon kept up; one 2 s run against uwebsockets showed autocannon at 0.87 of its
 * cpu, 2.5× short of the native engine, with the SUT half idle.
 */
export const GENERATOR_BUSY_SHARE = 0.75
export const SUT_IDLE_SHARE = 0.9

/** The generator-bound rule in words, from the figures above. */
export const GENERATOR_BOUND_RULE = `the load generator used ≥ ${Math.round(GENERATOR_BOUND_SHARE * 100)}% of its cpus, ` +
  `or ≥ ${Math.round(GENERATOR_BUSY_SHARE * 100)}% while the pinned SUT used < ${Math.round(SUT_IDLE_SHARE * 100)}% of its own`
