// @ts-check
/**
 * Named load profiles: what a run does when no option says otherwise. Explicit options override them.
 * @typedef {object} LoadProfile
 * @property {string} summary
 * @property {string[] | null} scenarios null: every scenario
 * @property {number[]} connections one run per level (a sweep when several)
 * @property {number} pipelining
 * @property {number} durationSec
 * @property {number} warmupSec
 * @property {number} launchWarmupSec seconds of load on each route a launch of a SUT serves, one after another, before the first of its
 *   cells is measured (each cell then warms its own route for `warmupSec`); 0: none
 * @property {number} repeats
 * @property {boolean} runtimeEvents whether each SUT's runtime reports what it did in every window (collections, compilations,
 *   deoptimisations): off where its cost would blur short cells, on where warm-up is what is studied
 * @property {string} [engine] the load generator the profile needs; absent: `auto`
 * @property {number} [streams] streams (HTTP/2) or messages (WebSocket) in flight per connection; absent: 1
 * @property {number} [budgetSec] the time the whole profile (every SUT on its scenarios) may take: its rounds per cell are then sized
 *   from the machine's measured spread within it, unless `--repeats`, `--duration` or `--warmup` is given; absent: `repeats` as it is
 */

/** The scenarios that need no data service. */
const NO_SERVICE_SCENARIOS = ['plaintext', 'json', 'params', 'post', 'fibonacci', 'error', 'validation', 'not-found']

/** @type {Readonly<Record<'quick' | 'standard' | 'paper' | 'ci' | 'sustained' | 'protocols', Readonly<LoadProfile>>>} */
export const LOAD_PROFILES = Object.freeze({
  // Two rounds of 1 s rather than one of 2 s: most of what moves a cell between two runs is the launch of its SUT (docs/measuring.md,
  // "Orders with their uncertainty"), which only a second launch can show; the two give every figure an interval and every
  // table its rank groups, in the time one round of 2 s took. Each launch is first warmed 0.2 s on each of its 8 routes, and each cell
  // then 0.15 s on its own: the first cell of a launch read 15 % below the others when each cell warmed only itself (0.4 s), and
  // now meets the framework about as warm as the second did (docs/measuring.md, "A launch warmed over all its routes"). So 24 SUTs × 8
  // scenarios × 2 rounds take about 575 s here. The 10 minutes are its budget: where the machine's spread needs more rounds to tell
  // apart 15 % and the budget pays for them (a fast machine), it gets them; where it cannot, the run says so before it starts; and
  // disturbed cells are measured again only while the budget lasts.
  quick: Object.freeze({
    summary: 'the default of `pnpm bench`: every SUT on the scenarios that need no service within 10 minutes, in shuffled rounds, ' +
      'each a fresh launch of the SUT warmed 0.2 s on each route, then 0.15 s warm-up and 1 s measured per cell: 2, or as many as ' +
      'this machine\'s measured spread needs to tell apart 15 % where the 10 minutes pay for them',
    scenarios: NO_SERVICE_SCENARIOS,
    connections: [100],
    pipelining: 1,
    durationSec: 1,
    warmupSec: 0.15,
    launchWarmupSec: 0.2,
    repeats: 2,
    budgetSec: 600,
    runtimeEvents: false
  }),
  standard: Object.freeze({
    summary: 'every scenario, 100 connections, 3 s warmup and 10 s measured',
    scenarios: null,
    connections: [100],
    pipelining: 1,
    durationSec: 10,
    warmupSec: 3,
    launchWarmupSec: 1,
    repeats: 1,
    runtimeEvents: false
  }),
  paper: Object.freeze({
    summary: 'the scenarios of published comparisons (static JSON, fibonacci, redis, validation, error), 10 repeats of 10 s',
    scenarios: ['json', 'fibonacci', 'redis', 'validation', 'error'],
    connections: [100],
    pipelining: 1,
    durationSec: 10,
    warmupSec: 3,
    launchWarmupSec: 1,
    repeats: 10,
    runtimeEvents: false
  }),
  ci: Object.freeze({
    summary: 'for comparing commits on CI machines: a few cheap scenarios, short repeats, as many as the paired test needs pairs',
    scenarios: ['plaintext', 'json', 'fibonacci'],
    connections: [50],
    pipelining: 1,
    durationSec: 3,
    warmupSec: 1,
    launchWarmupSec: 1,
    repeats: 6,
    runtimeEvents: false
  }),
  // Warm-up is what this profile studies: no separate warm-up phase, one long measured phase from the first request, and what the
  // runtime did in every window of it. Each cell's series is classified (flat, warm-up, slowdown, no steady state).
  sustained: Object.freeze({
    summary: 'does a SUT get faster under sustained load, and why: 60 s of json per SUT from its first request (no separate warm-up), ' +
      "with the runtime's collections, compilations and deoptimisations in every window, each series classified",
    scenarios: ['json'],
    connections: [100],
    pipelining: 1,
    durationSec: 60,
    warmupSec: 0,
    launchWarmupSec: 0,
    repeats: 1,
    runtimeEvents: true,
    // A client without a JIT: autocannon runs in Node and warms up too, and its own first seconds would be read as the SUT's (go-gin
    // × json: 11,963 req/s in the first 250 ms window, then 57,000 and more, autocannon at 92% of its cpus).
    engine: 'native'
  }),
  // The protocols services speak besides HTTP/1.1 in cleartext, each scenario a table of its own with rank groups: two rounds, each a
  // fresh launch of the SUT in the protocol (a SUT that cannot serve one through its framework is skipped, with the reason). One
  // stream per connection, as the HTTP/1.1 scenarios keep one request in flight: `--streams` measures multiplexing.
  protocols: Object.freeze({
    summary: 'HTTP/1.1 over TLS, HTTP/2 over TLS and in cleartext, and WebSocket echo (tls-json, h2-json, h2c-json, ws-echo): 2 shuffled ' +
      'rounds of 5 s after 2 s of warm-up, on the native engine (the one that speaks them all)',
    scenarios: ['tls-json', 'h2-json', 'h2c-json', 'ws-echo'],
    connections: [100],
    pipelining: 1,
    durationSec: 5,
    warmupSec: 2,
    launchWarmupSec: 0.5,
    repeats: 2,
    runtimeEvents: false,
    engine: 'native',
    streams: 1
  })
})

/** The profile of a run that names none. */
export const DEFAULT_PROFILE = 'quick'

/** The load settings of the `standard` profile, the reference values of single options. */
export const DEFAULT_LOAD = Object.freeze({
  connections: LOAD_PROFILES.standard.connections[0],
  pipelining: LOAD_PROFILES.standard.pipelining,
  durationSec: LOAD_PROFILES.standard.durationSec,
  warmupSec: LOAD_PROFILES.standard.warmupSec
})
