// @ts-check
import { join, resolve } from 'node:path'
import { LOAD_PROFILES } from '@dyno/scenarios'
import { COMMAND_OPTIONS, cacKey, flagName } from '../cli/option-table.js'
import { failingRows } from '../compare/build-comparison.js'
import { COMPARE_FORMATTERS } from '../compare/formats/index.js'
import { primaryFigures, rowName } from '../compare/formats/cells.js'
import { compareCommits } from '../compare-commits/compare-commits.js'
import { REPO_ROOT } from '../paths.js'
import { createRunId } from '../run/run-id.js'
import { compareRuns } from './compare-command.js'

/** The profile of compare-commits when none is named: a few cheap scenarios, and as many rounds as the signed-rank test needs pairs. */
export const DEFAULT_COMPARE_PROFILE = 'ci'

/**
 * Rounds of an instruction-count comparison when --repeats is not given: one count a side is enough, since its
 * counted windows are compared pair by pair (INSTRUCTION_COUNT_DEFAULTS.windows: what the signed-rank test needs).
 */
export const INSTRUCTION_COUNT_ROUNDS = 1

/**
 * Scenarios of an instruction-count comparison when --scenarios is not given: the framework's own path (routing,
 * parsing, serialising). The ci profile's fibonacci is about a million instructions of shared work per request: a
 * count of it takes minutes under callgrind and says little about the framework.
 */
export const INSTRUCTION_COUNT_SCENARIOS = Object.freeze(['plaintext', 'json', 'params'])

/** Options of `dyno run` that compare-commits sets itself for every round. */
const OWN_RUN_OPTIONS = new Set(['repeats', 'out', 'seed'])

/**
 * The `dyno run` flags the user gave, as typed, for both sides' harnesses. Only what was given is
 * passed on, so an older commit's harness is not handed an option it never had.
 * @param {Record<string, unknown>} raw cac's values, registered without defaults
 * @returns {string[]}
 */
export function forwardedRunArgs (raw) {
  return COMMAND_OPTIONS.run.flatMap((spec) => {
    const key = cacKey(spec)
    if (OWN_RUN_OPTIONS.has(key) || raw[key] === undefined) return []
    if (spec.flag.startsWith('--no-')) return raw[key] === false ? [flagName(spec)] : []
    return [flagName(spec), String(raw[key])]
  })
}

/**
 * `dyno compare-commits BASE_REF HEAD_REF`: both commits in temporary worktrees, installed, run in
 * alternating rounds, compared; the comparison on stdout in --format, progress on stderr.
 * Exit code: 0; 1 when --fail-on holds; 2 for a bad ref or option (a DynoError); interrupted: see main.
 * @param {string} baseRef
 * @param {string} headRef
 * @param {Record<string, any>} options validated by parseOptions('compare-commits', …)
 * @param {Record<string, unknown>} raw the options as given, for the rounds' `dyno run`
 * @param {import('../cli/main.js').Io} io
 * @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
export async function compareCommitsCommand (baseRef, headRef, options, raw, io, signal) {
  // Comparing commits defaults to the profile made for it; an explicit --profile wins.
  const profileName = raw.profile === undefined ? DEFAULT_COMPARE_PROFILE : options.profile
  const defaultRounds = options.measure === 'instructions'
    ? INSTRUCTION_COUNT_ROUNDS
    : LOAD_PROFILES[/** @type {keyof typeof LOAD_PROFILES} */ (profileName)].repeats
  const rounds = raw.repeats === undefined ? defaultRounds : options.repeats
  const countScenarios = options.measure === 'instructions' && raw.scenarios === undefined ? ['--scenarios', INSTRUCTION_COUNT_SCENARIOS.join(',')] : []
  const runArgs = [...(raw.profile === undefined ? ['--profile', DEFAULT_COMPARE_PROFILE] : []), ...forwardedRunArgs(raw), ...countScenarios]
  const resultsDir = join(resolve(REPO_ROOT, options.out), `compare-commits-${createRunId()}`)
  const started = performance.now()
  const log = (/** @type {string} */ line) => io.stderr.write(`${line}\n`)
  const measured = options.measure === 'instructions' ? 'instruction counts' : `profile ${profileName}`
  log(`dyno compare-commits: ${baseRef} against ${headRef}, ${rounds} round${rounds === 1 ? '' : 's'} (base and head alternating), ` +
    `${measured}; results in ${resultsDir}`)
  const outcome = await compareCommits({
    repoDir: REPO_ROOT,
    baseRef,
    headRef,
    runArgs,
    frameworks: options.frameworks ?? null,
    rounds,
    resultsDir,
    signal,
    onProgress: ({ stage, side, round, line }) => {
      if (line === undefined) log(`  ${side ? `${side}: ` : ''}${stage}${round ? ` (round ${round} of ${rounds})` : ''}`)
      else if (stage === 'running' && /^\s+(ok|invalid|failed|skipped)\s/.test(line)) log(`    ${side} r${round}: ${line.trim()}`)
      else if (stage === 'cleanup problem') log(`  ${line}`)
    }
  })
  // The rounds alternate base and head on one machine: each round's two runs are a pair.
  const comparison = compareRuns([join(resultsDir, 'base')], [join(resultsDir, 'head')], { thresholdPercent: options.thresholdPercent, paired: true })
  const totalSec = (performance.now() - started) / 1000
  if (options.format === 'md') {
    io.stdout.write(`Base \`${outcome.base.commit.slice(0, 12)}\` (${outcome.base.ref}: ${outcome.base.subject}) ` +
      `against head \`${outcome.head.commit.slice(0, 12)}\` ` +
      `(${outcome.head.ref}: ${outcome.head.subject}), ${rounds} alternating round${rounds === 1 ? '' : 's'} on one machine, ${measured}; ` +
      `${Math.round(totalSec)} s (install ${Math.round(outcome.installSec)} s, runs ${Math.round(outcome.runSec)} s).\n\n`)
  }
  io.stdout.write(COMPARE_FORMATTERS[/** @type {keyof typeof COMPARE_FORMATTERS} */ (options.format)](comparison) + '\n')
  log(`dyno compare-commits: done in ${Math.round(totalSec)} s (install ${Math.round(outcome.installSec)} s, runs ${Math.round(outcome.runSec)} s); ` +
    `results in ${resultsDir}`)
  const failing = failingRows(comparison, options.failOn ?? [])
  if (failing.length === 0) return 0
  log(`dyno compare-commits: --fail-on ${(options.failOn ?? []).join(',')}: ${failing.map((row) =>
    `${rowName(row)} ${row.status === 'not-comparable' ? 'is not comparable' : `regressed ${primaryFigures(row)?.changePercent}%`}`).join('; ')}`)
  return 1
}
