// @ts-check
/**
 * The one catalogue of dyno's errors, and the one source of harness/ERRORS.md (written from here by
 * `pnpm docs:write`; a test fails when the committed file differs). Library code throws a DynoError;
 * only the CLI turns it into `code: message`, the hint on the next line, and the exit code.
 *
 * Each code has:
 * - `exitCode`: the CLI's exit status;
 * - `when`: what happened, in the words of ERRORS.md (what was checked, how the run ends, where the figures go);
 * - `hint`: what to do about it, printed by the CLI under the message and in ERRORS.md.
 */
import { RUNTIME_NAMES } from '@dyno/runtimes'
import { DEFAULTS } from './defaults.js'

const SECONDS_PER_MINUTE = 60
const runtimeNames = RUNTIME_NAMES.map((name) => `\`${name}\``).join(', ')

export const ERRORS = Object.freeze({
  DYNO_ERR_INVALID_OPTION: {
    exitCode: 2,
    when: 'An option has a value outside what it allows (`--connections abc`), is unknown, or lacks its value. Nothing is started.',
    hint: 'Fix the value: `dyno <command> --help` lists each option and what it allows.'
  },
  DYNO_ERR_UNKNOWN_FRAMEWORK: {
    exitCode: 2,
    when:
      '`--frameworks` names a SUT that does not exist, or (with `--app`, and compare-versions\' arguments) a package that is not a ' +
      "dependency of the service's package.json. The message lists the valid names. Nothing is started.",
    hint: "Use a SUT name from `dyno list`; with --app, the service's name or a dependency its package.json declares."
  },
  DYNO_ERR_UNKNOWN_SCENARIO: {
    exitCode: 2,
    when: '`--scenarios` names a scenario that does not exist. The message lists the valid names.',
    hint: 'Use a scenario name from `dyno list`.'
  },
  DYNO_ERR_UNKNOWN_VERSION: {
    exitCode: 2,
    when:
      'A variant of `--frameworks` (`express@4.21.2`, `fastify@^4`, `koa@latest`, `fastify@path:../fastify`) names a version, range or ' +
      "dist-tag the registry does not have, a path that is not a directory holding the framework's package, a SUT whose framework is " +
      'not an npm package (node-http, the Go and Python SUTs), or a `path:` of a dependency of a service given by --app (not supported ' +
      'yet). Nothing is installed or started.',
    hint: 'Name a published version (`npm view <package> versions`), a range that matches one, a dist-tag, or a checkout of the framework.'
  },
  DYNO_ERR_VARIANT_INSTALL: {
    exitCode: 1,
    when:
      'The cached copy of a SUT package for a variant of its framework, or of a service (--app) for a version of its dependency, could ' +
      "not be installed (pnpm or npm failed, or installed another version). That variant's runs are `failed` with the installer's " +
      'last lines; the rest of the run goes on.',
    hint:
      "Read the installer's lines in the result's reason; a variant whose dependencies conflict with the SUT's may need other " +
      "versions of the packages that move with it (`dyno.moveWith` of the SUT's package.json)."
  },
  DYNO_ERR_UNKNOWN_COMMAND: {
    exitCode: 2,
    when: 'The first argument is not a dyno command.',
    hint: 'Run `dyno --help` to see the commands.'
  },
  DYNO_ERR_UNKNOWN_RUNTIME: {
    exitCode: 2,
    when:
      `\`--runtime\` names a runtime dyno does not know (the message lists the valid ones: ${runtimeNames}). ` +
      'A known runtime that is not installed is not this error: its SUTs are skipped with the reason.',
    hint: 'Run `dyno list` to see the runtimes and whether each is installed.'
  },
  DYNO_ERR_SUT_BUILD: {
    exitCode: 1,
    when:
      'A SUT\'s build script (a Go build, a Python virtual environment) failed or ran past ' +
        `${DEFAULTS.buildTimeoutSec / SECONDS_PER_MINUTE} minutes. ` +
      "The SUT's runs are `failed` with the build's last lines; a missing toolchain is a skip, not this error.",
    hint: 'Run the build by hand (`pnpm --filter @dyno/sut-<name> build`) and read its output.'
  },
  DYNO_ERR_APP_CONFIG: {
    exitCode: 2,
    when:
      '`--app DIR` names a directory without a `dyno.config.yaml` (`.yml`, `.json`), or a config that does not parse, breaks the ' +
      'schema (each problem named with the file, the path inside it and what is allowed) or names a path outside the directory. ' +
      'Nothing is started.',
    hint: 'Fix the config where the message points: docs/app.md describes every key.'
  },
  DYNO_ERR_SUT_PACKAGE: {
    exitCode: 2,
    when: 'A package under `packages/` lacks the `dyno` field (`framework`, `start`) or is misnamed.',
    hint: 'Give the package a `dyno` field with `framework` and `start`: see "Writing a SUT" in scenarios/README.md.'
  },
  DYNO_ERR_SUT_NOT_READY: {
    exitCode: 1,
    when:
      'The SUT printed no ready line (`{"event":"ready","port":N}`) within `--ready-timeout` seconds, or announced an invalid port. ' +
      `The run is \`failed\`; the reason carries the last ${DEFAULTS.errorTailLines} lines of its stderr.`,
    hint:
      'The SUT must print `{"event":"ready","port":<port>}` on stdout once it listens: read its stderr above, ' +
      'or start it by hand (`pnpm --filter @dyno/sut-<name> start`) and read what it prints.'
  },
  DYNO_ERR_SUT_EXITED: {
    exitCode: 1,
    when:
      'The SUT process ended by itself: before it was ready, or during load (a crash). The run is `failed`, with the exit code or signal ' +
      'and the last stderr lines.',
    hint: 'The SUT ended on its own: its last stderr lines, in the message, say why.'
  },
  DYNO_ERR_SUT_PROTOCOL: {
    exitCode: 1,
    when:
      "The SUT was asked to serve one protocol (`PROTOCOL=h2`: its scenario's) and its ready line announced another, or none " +
      '(`{"event":"ready","port":N,"protocol":"http1"}`). The message names both. The SUT is stopped and the run is `failed`: what ' +
        'it serves is ' +
      'not what the scenario measures.',
    hint:
      "The SUT's start must serve the protocol PROTOCOL names and announce it (`serveProtocol` and `announceReady` of " +
      '`@dyno/scenarios/sut`, ' +
      '`dyno.Run` in Go, `ready_line` in Python); a protocol its framework cannot serve is declared in `dyno.unsupportedScenarios`.'
  },
  DYNO_ERR_TLS_CERTIFICATE: {
    exitCode: 1,
    when:
      "The certificate dyno makes for a run's TLS scenarios could not be made: `openssl` failed, or, without `openssl` on PATH, the " +
      '`selfsigned` package did; or its copy could not be written on a host of its own (`--sut-host`, `--load-hosts`): the script ' +
      'that writes it failed there, or its reply was not among the lines the host printed. The message says what failed, and on ' +
      'which host; the copies already written on any host are removed. No SUT is started for a TLS scenario.',
    hint: 'Install `openssl` (`apt-get install openssl`), or read the message: it says which maker or which host failed and why.'
  },
  DYNO_ERR_SUT_NOT_STOPPED: {
    exitCode: 1,
    when: "A process of the SUT's process group was still alive after SIGTERM, the grace period and SIGKILL.",
    hint: 'Find the surviving process with `ps -eo pid,pgid,args` and report the SUT.'
  },
  DYNO_ERR_SUT_REFUSED: {
    exitCode: 1,
    when:
      'The SUT started in a mode dyno does not measure, e.g. a uWebSockets.js build that fell back to pure JS. The run is `skipped` ' +
      'with this reason.',
    hint: 'Run the SUT on a runtime where its native build loads (Node 20 for the bundled uWebSockets.js).'
  },
  DYNO_ERR_RESPONSE_MISMATCH: {
    exitCode: 1,
    when:
      'Verification before load found a response that breaks the contract (status, content type, body, framing, keep-alive, or a probe). ' +
      'The run is `invalid` and no load is sent.',
    hint: 'The SUT does not answer as the contract says: `dyno verify --frameworks <name>` lists every check with expected and ' +
      'actual values.'
  },
  DYNO_ERR_UNEXPECTED_UNDER_LOAD: {
    exitCode: 1,
    when:
      "Under load, some responses had a body that does not match the scenario or a status other than the scenario's, or the engine " +
        'refused them as invalid (a length that cannot be, a head or body over its bound), or an answer that never ends held wrk past ' +
        'its phase (wrk is then stopped, without a report). The run is `invalid`; the counts are in the reason and in `mismatches` / ' +
        '`unexpectedStatus` / `invalidResponses` (with `failureReasons`).',
    hint: 'The SUT answers wrong under load, so its numbers are not a valid measurement; the counts in the message say how often.'
  },
  DYNO_ERR_SERVICE_UNAVAILABLE: {
    exitCode: 1,
    when:
      'A data service a selected scenario needs (Redis, PostgreSQL, SQLite) cannot be had: no `redis-server` on PATH, no ' +
        'PostgreSQL binaries, ' +
      'a `REDIS_URL` / `DATABASE_URL` that does not answer. Its scenarios end `skipped` with the reason; under `CI=true` they end ' +
      '`failed` instead.',
    hint:
      'Install the service as the reason says (e.g. `apt-get install redis-server`), or point dyno at one with REDIS_URL / ' +
      'DATABASE_URL.'
  },
  DYNO_ERR_SERVICE_DIED: {
    exitCode: 1,
    when: 'A data service stopped during a run (the run ends `failed`), or could not be restarted, or could not be stopped at the end.',
    hint: 'dyno restarts the services it manages before the next run; a service given by REDIS_URL / DATABASE_URL must be brought ' +
      'back by you.'
  },
  DYNO_ERR_QUERY_RATIO: {
    exitCode: 1,
    when:
      "After a redis or postgres run, the server's own counters (Redis `INFO commandstats`, PostgreSQL `pg_stat_statements`) " +
        'show a number ' +
      'of queries far from one per request: the SUT caches or answers without the query. The run is `invalid`; the ratio is in ' +
      '`serverCheck`.',
    hint: "Make the SUT do the scenario's query on every request (no cache, no constant answer); until then its numbers are not comparable."
  },
  DYNO_ERR_LOAD_GENERATOR: {
    exitCode: 1,
    when: 'The load generator process failed, exited early, or did not finish in time. The run is `failed`.',
    hint: "The message carries the load generator's error and its last stderr lines."
  },
  DYNO_ERR_INTERRUPTED: {
    exitCode: 130,
    when:
      'Ctrl-C (SIGINT), SIGTERM or SIGHUP reached the harness, or the process that started it (pnpm) went away. The running ' +
        'SUT, the load ' +
      'generator and the services are stopped, the run under way is written as `failed` with what it had measured, run.json is marked ' +
      "`interrupted`. The exit status is 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP and for a " +
        'parent gone. ' +
      'A second Ctrl-C kills every process dyno started at once; the run under way is still written.',
    hint: 'Finished runs are kept in the run directory.'
  },
  DYNO_ERR_RUN_UNREADABLE: {
    exitCode: 2,
    when:
      '`dyno report` was given a directory without run.json, or a result or aggregates file it lists is missing or not JSON. The ' +
      'message names the file.',
    hint: 'Name a run directory written by `dyno run` (it holds run.json).'
  },
  DYNO_ERR_MERGE_REFUSED: {
    exitCode: 2,
    when:
      '`dyno merge` was given parts that do not make one plan: a directory that is not a part of a split plan (`--shard K/N`) or is ' +
      'not complete, parts of different plans, commits or splits, a part missing or given twice, wall-clock parts measured on ' +
        'machines that ' +
      'differ (without `--allow-mixed-machines`), counts made on different runtime versions or pinned to different cpu baselines, or an ' +
      '`--out` that is not empty. The message names the directory and what differs. Nothing is written.',
    hint: 'Merge every part of one `--shard K/N` plan, each once, made at one commit; run a missing or interrupted part again.'
  },
  DYNO_ERR_DATASET: {
    exitCode: 2,
    when:
      'The data directory of `dyno timeline`, `timeline-add` or `site` is not one it can read or append to: a file, a directory ' +
        'with files ' +
      'but no dataset.json, a dataset.json of another layout or layout version, a dataset.json, records/ or record that is not a regular ' +
      'file or directory of its own (a FIFO, a symbolic link), a file larger or JSON nested deeper than dyno writes, or a ' +
        'record that does ' +
      'not parse, is not named by the hash of its key, has a release that is not a semver version, or does not match the record schema. ' +
      'The message names the file and the field. Nothing is measured, appended or written.',
    hint: 'Give a data directory made by `dyno timeline` (of this layout), an empty directory or a new path; move a foreign file out ' +
      'of records/.'
  },
  DYNO_ERR_TIMELINE_RUN: {
    exitCode: 2,
    when:
      'A run given to `dyno timeline-add` (or the run `dyno timeline` made) holds a result that does not make a record the timeline ' +
      "keeps: a framework whose name is not an npm package's (npm would read `--cache=…` as an option), a release that is not a semver " +
      'version, a count setting missing (`load.countWindows`), or any field the record schema refuses. The message names the result file ' +
      'and the field. Nothing is appended, and the registry is not asked.',
    hint: 'Append runs made by `dyno timeline` (or `dyno run --frameworks <sut>@<version> --measure instructions`), merged by `dyno merge`.'
  },
  DYNO_ERR_BISECT: {
    exitCode: 1,
    when:
      '`dyno bisect` cannot search: the bad commit does not step beyond the threshold against the good one, the good commit is not ' +
      'an ancestor of the bad one, or a commit could not be counted (the message names it, its run and why). What was counted is kept.',
    hint:
      'Check the two refs with `git log GOOD..BAD`; a commit that does not install or serve the contract cannot be judged: bisect ' +
      'around it with other refs.'
  },
  DYNO_ERR_COMPARE_INPUT: {
    exitCode: 2,
    when:
      'An input of `dyno compare` does not exist, is not JSON, is neither a run directory (run.json), a directory of run directories, ' +
      'a run.json nor a result file, lists a result file that is missing, or a result lacks a field the comparison reads. ' +
      'The message names the side (baseline or candidate), the file and what is wrong.',
    hint: 'Give `dyno compare` two run directories (with run.json), directories of runs, or result files written by `dyno run`.'
  },
  DYNO_ERR_EXPLAIN_INPUT: {
    exitCode: 2,
    when:
      'An input of `dyno explain` holds no instruction count that ended ok, or a count without functions by layer (made by a dyno ' +
      'from before they were kept, or of a runtime other than Node), or a function list that cannot be read; or the two are timeline ' +
      'records of different lines or scenarios, or one is a record and the other a run. The message names the side, the file and why.',
    hint: 'Count both sides with this dyno: `dyno run --measure instructions` (a count of the same code is taken from the count cache ' +
      'unless it was made before; `--no-count-cache` counts again), or `dyno timeline` for two releases of one line.'
  },
  DYNO_ERR_COMPARE_SCHEMA: {
    exitCode: 2,
    when:
      'The two sides of `dyno compare` were written with different result schema versions, one side mixes versions, or a file ' +
        'has a version ' +
      'this dyno cannot read. The message names the files and their versions.',
    hint: 'Re-run the older side with this dyno, so both sides share a result schema version.'
  },
  DYNO_ERR_COMPARE_DISJOINT: {
    exitCode: 2,
    when:
      'The baseline and the candidate of `dyno compare` have no (SUT, scenario, connections) in common; the message lists what each ' +
        'side holds. ' +
      'Cells present on one side only, when others match, are rows marked not comparable instead.',
    hint: 'Measure the same SUTs, scenarios and connection levels on both sides (`--frameworks`, `--scenarios`, `--connections`).'
  },
  DYNO_ERR_COMPARE_CPU_BASELINE: {
    exitCode: 2,
    when:
      'The instruction counts given to `dyno compare` were pinned to different cpu baselines (the extensions of the cpu hidden from ' +
      'the SUT, so that any x86-64 runner counts the same code; `none`: counted by a dyno from before baselines), between the sides or ' +
      'within one. The message names each baseline with the runs and rows counted with it. Nothing is compared.',
    hint:
      'Count the side made with the other baseline again with this dyno (`dyno run --measure instructions`): every count it makes ' +
      'is pinned to the same baseline, on any machine.'
  },
  DYNO_ERR_PATH: {
    exitCode: 2,
    when:
      'A path given to dyno cannot be used, checked before anything starts: `--out` is a file, lies under a file, or sits where ' +
        'no new file ' +
      'can be made (read-only, `/proc`); a `report` run directory is not writable; a `compare` or `report` input is a FIFO, a device ' +
        'or a socket, ' +
      'or too large to be a file dyno wrote. The message names the path and what is wrong with it.',
    hint: 'Name a directory dyno can create or write in (--out), or a run directory or result file written by `dyno run` (report, compare).'
  },
  DYNO_ERR_CACHE_KEY: {
    exitCode: 1,
    when:
      'The key that seals what dyno keeps in its cache directory (`seal.key` of `DYNO_CACHE_DIR`, else of `$XDG_CACHE_HOME/dyno` ' +
        'or `~/.cache/dyno`) ' +
      'is not one only this user can have written: another user owns it, its group or others can write it, or it is a symbolic ' +
        'link or not a regular file. ' +
      'Whatever it sealed (the engine calibration, counts) could have been sealed by someone else, so dyno stops where it would ' +
        'read or seal a file with it. ' +
      'The message names the file and the reason. (A key that is empty or garbled is made anew, and what it sealed is measured again.)',
    hint:
      'If you made the file, `chmod 600` it (and own it); otherwise remove it, and dyno makes a new key (what the old one sealed is ' +
      'measured again). Or point DYNO_CACHE_DIR at a directory of your own.'
  },
  DYNO_ERR_RESULTS_WRITE: {
    exitCode: 1,
    when: 'A result file or run.json could not be written.',
    hint: 'Check that the --out directory is writable and the disk has room.'
  },
  DYNO_ERR_GIT_REF: {
    exitCode: 2,
    when: '`compare-commits`: BASE_REF or HEAD_REF is not a commit of the repository (`git rev-parse` does not resolve it).',
    hint: 'Name a branch, tag or commit of this repository (`git log --oneline`); fetch one that only exists on a remote first.'
  },
  DYNO_ERR_GIT_WORKTREE: {
    exitCode: 1,
    when: '`compare-commits`: git could not check a commit out into a temporary worktree.',
    hint: 'git could not add a worktree: `git worktree list` and `git worktree prune` show and clear stale ones.'
  },
  DYNO_ERR_COMPARE_INSTALL: {
    exitCode: 1,
    when:
      '`compare-commits`: `pnpm install --frozen-lockfile` failed in a worktree (or pnpm is missing). The worktrees are removed; ' +
      "the message carries pnpm's last lines.",
    hint:
      "Read pnpm's last lines in the message: install pnpm 10 if it is missing, and check that the commit's lockfile matches its " +
      'package.json.'
  },
  DYNO_ERR_COMPARE_RUN: {
    exitCode: 1,
    when:
      "`compare-commits`: a side's `dyno run` exited with a usage error (exit 2) or a signal, so there is nothing to compare. " +
      'Runs that are merely not ok (exit 1) are compared and shown as not comparable.',
    hint:
      "A side's `dyno run` could not run at all (not: some runs failed): read its last lines in the message; " +
      "the commit's harness may not know an option you gave."
  },
  DYNO_ERR_HOST_UNREACHABLE: {
    exitCode: 2,
    when:
      'A host of `--sut-host` or `dyno host prepare` cannot be used over SSH: it does not answer, refuses the key, asks for a password, ' +
      'or its host key is unknown (dyno runs ssh in batch mode: it never prompts and never accepts a host key for you), or it ' +
        'lacks what the ' +
      'run needs there (Node.js, a dyno checkout). Nothing is started.',
    hint:
      'Run `ssh <host> true` until it works without a prompt (an agent or a key in your SSH config, the host key in known_hosts), ' +
      'then `dyno host prepare ssh://<host>`.'
  },
  DYNO_ERR_HOST_NOT_PREPARED: {
    exitCode: 2,
    when:
      'The dyno checkout on a `--sut-host` is missing, at another commit, or installed from another lockfile than this one. ' +
      'The message names both. Nothing is started.',
    hint: 'Run `dyno host prepare ssh://<host>` from this checkout: it puts this commit there and installs it.'
  },
  DYNO_ERR_HOST_LOST: {
    exitCode: 1,
    when:
      'The SSH connection to a host dropped during a run. The run in progress ends `failed` with this reason; the results ' +
        'measured before ' +
      'it are on disk; what dyno started on the host ends with the connection.',
    hint: 'Check the link to the host; run again.'
  }
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
