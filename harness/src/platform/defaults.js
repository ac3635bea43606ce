// @ts-check
// The defaults of a run that several commands share (run, verify, calibrate, report, compare-commits). The load
// itself (connections, duration, warmup, pipelining, repeats) comes from the profiles of the scenarios package.
//
// Defaults that belong to one area live beside the code of that area, each with the reasoning behind its
// value, and the option table (harness/src/interface/cli/option-table.js) reads them from there:
// - load profiles, DEFAULT_PROFILE, DEFAULT_LOAD: scenarios/src/load-profiles.js
// - `dyno compare` (threshold, alpha, format): harness/src/reports/compare/compare-defaults.js
// - `dyno compare-commits` (its profile, its rounds): harness/src/interface/commands/compare-commits-command.js
// - `dyno calibrate` (duration, warmup): CALIBRATION_DEFAULTS in harness/src/interface/commands/calibrate-command.js
// - `--measure instructions` (warm-up, windows): INSTRUCTION_COUNT_DEFAULTS in
// harness/src/measures/instructions/counts/count-instructions.js
// - `--pin`: DEFAULT_PIN in harness/src/pinning/pin-option.js; `--runtime`: DEFAULT_RUNTIME in
// harness/src/subjects/runtimes/runtime-targets.js
// - resource sampling and the generator-bound rule: harness/src/platform/resources/resource-defaults.js
import { homedir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_LOAD } from '@dyno/scenarios'
import { DEFAULT_PG_POOL_SIZE } from '@dyno/scenarios/data'

export const DEFAULTS = Object.freeze({
  ...DEFAULT_LOAD,
  /** Where run directories are written, relative to the repository root. */
  out: 'results',
  /** Where what dyno measures once and reuses is kept (the engine calibration): outside the checkout, so every checkout shares it. */
  cacheDir: process.env.DYNO_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'dyno'),
  /** Server worker processes of a SUT that supports them (dyno.workers in its package.json). */
  workers: 1,
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
  windowMs: 250,
  /** How many of its last output lines a failed child process (a SUT, a load generator, a command of compare-commits) gets quoted. */
  errorTailLines: 20,
  /**
   * How long a SUT's build (a Go binary, a Python virtual environment, which may download modules or wheels) may take: past this it hung.
   */
  buildTimeoutSec: 900
})

/** The version of the result schema this harness writes (harness/schema/result.schema.json). */
export const SCHEMA_VERSION = 2
