// @ts-check
/**
 * The one catalogue of dyno's errors. Every code is documented in harness/ERRORS.md (a test checks it).
 * Library code throws a DynoError; only the CLI turns it into `code: message` and an exit code.
 */
export const ERRORS = Object.freeze({
  DYNO_ERR_INVALID_OPTION: { exitCode: 2, hint: 'Run `dyno <command> --help` for the allowed values.' },
  DYNO_ERR_UNKNOWN_FRAMEWORK: { exitCode: 2, hint: 'Run `dyno list` to see the SUTs.' },
  DYNO_ERR_UNKNOWN_SCENARIO: { exitCode: 2, hint: 'Run `dyno list` to see the scenarios.' },
  DYNO_ERR_UNKNOWN_COMMAND: { exitCode: 2, hint: 'Run `dyno --help` to see the commands.' },
  DYNO_ERR_UNKNOWN_RUNTIME: { exitCode: 2, hint: 'Run `dyno list` to see the runtimes and whether each is installed.' },
  DYNO_ERR_SUT_BUILD: { exitCode: 1, hint: 'The SUT\'s build script failed; run it by hand (`pnpm --filter @dyno/sut-<name> build`) and read its output.' },
  DYNO_ERR_SUT_PACKAGE: { exitCode: 2, hint: 'A SUT package needs a `dyno` field with `framework` and `start` (see scenarios/README.md).' },
  DYNO_ERR_SUT_NOT_READY: { exitCode: 1, hint: 'The SUT must print {"event":"ready","port":<port>} on stdout once it listens; see its stderr above.' },
  DYNO_ERR_SUT_EXITED: { exitCode: 1, hint: 'The SUT process ended on its own; its last stderr lines say why.' },
  DYNO_ERR_SUT_NOT_STOPPED: { exitCode: 1, hint: 'A process of the SUT survived SIGKILL; find it with `ps -eo pid,pgid,args`.' },
  DYNO_ERR_SUT_REFUSED: { exitCode: 1, hint: 'The SUT runs in a mode dyno will not measure (for example a uWebSockets.js fallback build).' },
  DYNO_ERR_RESPONSE_MISMATCH: { exitCode: 1, hint: 'The SUT does not answer as the contract says; `dyno verify` shows every check.' },
  DYNO_ERR_UNEXPECTED_UNDER_LOAD: { exitCode: 1, hint: 'The SUT answered wrong bodies or statuses under load; the run is not a valid measurement.' },
  DYNO_ERR_SERVICE_UNAVAILABLE: { exitCode: 1, hint: 'Install the service (the reason says how) or point dyno at one with REDIS_URL / DATABASE_URL.' },
  DYNO_ERR_SERVICE_DIED: { exitCode: 1, hint: 'A data service stopped during a run; dyno restarts managed services before the next run.' },
  DYNO_ERR_QUERY_RATIO: { exitCode: 1, hint: 'The SUT did not make one query per request (a cache or a constant answer); its numbers are not comparable.' },
  DYNO_ERR_LOAD_GENERATOR: { exitCode: 1, hint: 'The load generator process failed; its message says why.' },
  DYNO_ERR_INTERRUPTED: { exitCode: 130, hint: 'The run was interrupted; finished runs are kept in the run directory.' },
  DYNO_ERR_RUN_UNREADABLE: { exitCode: 2, hint: 'Name a run directory written by `dyno run` (it holds run.json).' },
  DYNO_ERR_COMPARE_INPUT: { exitCode: 2, hint: 'Give `dyno compare` two run directories (with run.json), directories of runs, or result files written by `dyno run`.' },
  DYNO_ERR_COMPARE_SCHEMA: { exitCode: 2, hint: 'Compare results written by the same result schema version: re-run the older side with this dyno.' },
  DYNO_ERR_COMPARE_DISJOINT: { exitCode: 2, hint: 'Run the same SUTs, scenarios and connections on both sides (`--frameworks`, `--scenarios`, `--connections`).' },
  DYNO_ERR_PATH: { exitCode: 2, hint: 'Name a directory dyno can create or write in (--out), or a run directory or result file written by `dyno run` (report, compare).' },
  DYNO_ERR_RESULTS_WRITE: { exitCode: 1, hint: 'Check that the --out directory is writable and the disk is not full.' },
  DYNO_ERR_GIT_REF: { exitCode: 2, hint: 'Name a branch, tag or commit of this repository (`git log --oneline`); fetch remote refs first.' },
  DYNO_ERR_GIT_WORKTREE: { exitCode: 1, hint: 'git could not add a worktree; `git worktree list` and `git worktree prune` show and clear stale ones.' },
  DYNO_ERR_COMPARE_INSTALL: { exitCode: 1, hint: 'pnpm install failed in a worktree; its last lines say why (the commit\'s lockfile must match its package.json).' },
  DYNO_ERR_COMPARE_RUN: { exitCode: 1, hint: 'A side\'s `dyno run` could not run at all (not: some runs failed); its last lines say why.' }
})

/** @typedef {keyof typeof ERRORS} ErrorCode */

export class DynoError extends Error {
  /**
   * @param {ErrorCode} code
   * @param {string} message says what was wrong, naming the bad value and what is allowed
   * @param {{ cause?: unknown, details?: Record<string, unknown> }} [extra]
   */
  constructor (code, message, extra = {}) {
    super(message, { cause: extra.cause })
    this.name = 'DynoError'
    this.code = code
    this.hint = ERRORS[code].hint
    this.exitCode = ERRORS[code].exitCode
    this.details = extra.details ?? {}
  }
}

/**
 * @param {unknown} error
 * @returns {error is DynoError}
 */
export function isDynoError (error) {
  return error instanceof DynoError
}
