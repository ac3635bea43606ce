// @ts-check
// Every default of the harness, in one place. Load defaults come from the scenarios package.
import { DEFAULT_LOAD } from '@dyno/scenarios'
import { DEFAULT_PG_POOL_SIZE } from '@dyno/scenarios/data'

export const DEFAULTS = Object.freeze({
  ...DEFAULT_LOAD,
  /** Where run directories are written, relative to the repository root. */
  out: 'results',
  /** How long a SUT may take to print its ready line. */
  readyTimeoutSec: 15,
  /** How long a SUT may take to exit after SIGTERM before it gets SIGKILL. */
  stopGraceSec: 5,
  /** How long one verification request may take. */
  requestTimeoutSec: 5,
  verify: true,
  /** Connections in each of a SUT's PostgreSQL pools (pg and postgres.js). */
  pgPoolSize: DEFAULT_PG_POOL_SIZE,
  /** The width of the latency-over-time windows. */
  windowMs: 250
})

/** The version of the result schema this harness writes (harness/schema/result.schema.json). */
export const SCHEMA_VERSION = 2
