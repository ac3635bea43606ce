// @ts-check
// The defaults of resource sampling and of the generator-bound guard. (Candidates for
// harness/src/defaults.js once they become options.)

/** How often the orchestrator samples CPU and RSS of the SUT and of the load generator. */
export const DEFAULT_RESOURCE_INTERVAL_MS = 250
/** How often the whole of /proc is scanned for new processes of a SUT's group. */
export const DEFAULT_RESCAN_MS = 1000
/** How often the preload in a Node SUT writes one event-loop-delay line. */
export const DEFAULT_EVENT_LOOP_INTERVAL_MS = 1000
/** The share of its allotment of CPU at which the load generator counts as the bottleneck. */
export const GENERATOR_BOUND_SHARE = 0.9
