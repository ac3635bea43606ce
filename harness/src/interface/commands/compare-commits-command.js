// @ts-check
import { measureNamed } from '../../measures/index.js'
import { planDeciding } from '../../suite/plan/split-plan.js'
import { join, resolve } from 'node:path'
import { COMPARE_FORMATTERS } from '../../reports/compare/formats/index.js'
import { failureText } from '../../reports/compare/formats/cells.js'
import { compareCommits } from '../../history/compare-commits/compare-commits.js'
import { splitComparison } from '../../history/compare-commits/split-comparison.js'
import { subjectCatalogue } from '../../subjects/suts/subject-catalogue.js'
import { appCheckouts, dynoCheckouts } from '../../history/compare-commits/checkouts.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { createRunId } from '../../records/run-id.js'
import { compareRuns } from '../../reports/compare/compare-runs.js'
import { flagName } from '../../platform/options/option-spec.js'
import { RUN_OPTIONS } from '../cli/option-table.js'
import { COMPARE_FORMAT, FAIL_ON, THRESHOLD } from '../options/compare-options.js'
import { COMPARE_COMMITS_RUN_OPTIONS, COMPARISON_PROFILE } from '../options/comparison-options.js'
import { LOAD_PROFILES } from '@dyno/scenarios'
import { DEFAULT_MEASURE } from '../../measures/index.js'
import { instructions } from '../../measures/instructions/instructions.js'

/**
 * The options of compare-commits: a round's `dyno run` options, how the comparison is shown and judged, and the counts' jobs.
 * @typedef {import('../../platform/options/option-spec.js').OptionValues
 *   & Omit<import('../../suite/prepare-run.js').RunFields, 'frameworks'>
 *   & { frameworks: string[] | null, format: string, failOn: string[],
 *   thresholdPercent: number, countJobs: number, countJobsGiven: boolean }} CompareCommitsValues
 */

/**
 * `dyno compare-commits BASE_REF HEAD_REF`: both commits in temporary worktrees, installed, run in
 * alternating rounds, compared; the comparison on stdout in --format, progress on stderr.
 * Exit code: 0; 1 when --fail-on holds; 2 for a bad ref or option (a DynoError); interrupted: see main.
 * @param {string} baseRef
 * @param {string} headRef
 * @param {CompareCommitsValues} options the parsed options of compare-commits (parse-command-line.js)
 * @param {string[]} runArgs the options of every round's `dyno run` (without --repeats, --out and --seed, which it sets itself)
 * @param {import('../cli/io.js').Io} io
 * @param {AbortSignal} signal
 * @param {Set<string>} planFields the fields of its options that decide what it measures (parse-command-line.js)
 * @returns {Promise<number>}
 */
export async function compareCommitsCommand (baseRef, headRef, options, runArgs, io, signal, planFields) {
  const rounds = options.repeats
  const shard = options.shard
  const split = comparisonSplit(options, planFields)
  if (options.planOnly) {
    io.stdout.write(planText(split))
    return 0
  }
  const part = split.parts[(shard?.index ?? 1) - 1]
  const resultsDir = join(resolve(REPO_ROOT, options.out), `compare-commits-${createRunId()}`)
  const started = performance.now()
  const log = (/** @type {string} */ line) => io.stderr.write(`${line}\n`)
  const measure = measureNamed(options.measure)
  const measured = measure.comparison.comparedBy(options.profile)
  log(`dyno compare-commits: ${baseRef} against ${headRef}, ${rounds} round${rounds === 1 ? '' : 's'} (base and head alternating), ` +
    `${measured}${shard ? `, ${partLine(part, shard, split.cells)}` : ''}; results in ${resultsDir}`)
  const outcome = await compareCommits({
    repoDir: REPO_ROOT,
    checkouts: options.app ? appCheckouts(options.app) : dynoCheckouts(),
    baseRef,
    headRef,
    runArgs,
    countJobs: measure.schedule.besideOtherWork ? { total: options.countJobs, given: options.countJobsGiven } : null,
    frameworks: shard ? part.subsets.flatMap((subset) => subset.frameworks) : options.frameworks,
    subsets: shard ? part.subsets : null,
    record: recordedPlan(options, split, part),
    rounds,
    resultsDir,
    signal,
    onProgress: progressLogger(log, rounds)
  })
  if (part.cells === 0) {
    log(`dyno compare-commits: part ${shard?.index}/${shard?.count} has no cells (the plan has ${split.cells}); nothing to compare`)
    return 0
  }
  // The rounds alternate base and head on one machine: each round's two runs are a pair.
  const comparison = compareRuns([join(resultsDir, 'base')], [join(resultsDir, 'head')], {
    thresholdPercent: options.thresholdPercent,
    paired: true
  })
  const took = timeTaken(outcome, (performance.now() - started) / 1000)
  if (options.format === 'md') io.stdout.write(markdownHeading(outcome, rounds, measured, took))
  io.stdout.write(COMPARE_FORMATTERS[/** @type {keyof typeof COMPARE_FORMATTERS} */ (options.format)](comparison) + '\n')
  log(`dyno compare-commits: done in ${took}; results in ${resultsDir}`)
  const failure = failureText(comparison, options.failOn)
  if (failure === null) return 0
  log(`dyno compare-commits: ${failure}`)
  return 1
}

/**
 * @typedef {import('../../history/compare-commits/split-comparison.js').ComparisonPlan} ComparisonPlan
 * @typedef {import('../../history/compare-commits/split-comparison.js').ComparisonPart} ComparisonPart
 * @typedef {Awaited<ReturnType<typeof compareCommits>>} CommitsOutcome
 */

/**
 * The comparison's plan, split into as many parts as --shard says. A part's share is named SUT by SUT: without --frameworks, every SUT
 * of this checkout.
 * @param {CompareCommitsValues} options @param {Set<string>} planFields
 * @returns {ComparisonPlan}
 */
function comparisonSplit (options, planFields) {
  const catalogue = subjectCatalogue(options.app)
  const frameworks = options.frameworks ?? catalogue.suts.map((sut) => sut.name)
  return splitComparison({
    frameworks,
    scenarios: options.scenarios,
    runtimes: options.runtimes,
    connections: options.connections,
    rounds: options.repeats,
    count: options.shard?.count ?? 1,
    settings: options,
    measure: measureNamed(options.measure),
    options: planDeciding({ ...options, frameworks }, planFields),
    catalogue: catalogue.scenarios
  })
}

/** @param {ComparisonPlan} split @returns {string} what --plan prints: the plan and each part's shard */
function planText (split) {
  return JSON.stringify({
    id: split.id,
    cells: split.cells,
    expectedSec: split.expectedSec,
    parts: split.parts.map((part, index) => ({ shard: `${index + 1}/${split.parts.length}`, ...part }))
  }, null, 2) + '\n'
}

/**
 * What compare-commits.json records of the plan besides the commits and the progress: the measure, the options, and this part's share.
 * @param {CompareCommitsValues} options @param {ComparisonPlan} split @param {ComparisonPart} part
 * @returns {Record<string, unknown>}
 */
function recordedPlan (options, split, part) {
  const shard = options.shard
  return {
    measure: options.measure,
    options: { ...options, shard },
    plan: {
      id: split.id,
      cells: split.cells,
      expectedSec: split.expectedSec,
      shard: shard ? { ...shard, cells: part.cells, expectedSec: part.expectedSec } : null
    }
  }
}

/**
 * The progress lines on stderr: each stage, each run's outcome line, and what could not be cleaned up.
 * @param {(line: string) => void} log @param {number} rounds
 * @returns {NonNullable<import('../../history/compare-commits/compare-commits.js').CompareCommitsPlan['onProgress']>}
 */
function progressLogger (log, rounds) {
  return ({ stage, side, round, line }) => {
    if (line === undefined) log(`  ${side ? `${side}: ` : ''}${stage}${round ? ` (round ${round} of ${rounds})` : ''}`)
    else if (stage === 'running' && /^\s+(ok|invalid|failed|skipped)\s/.test(line)) log(`    ${side} r${round}: ${line.trim()}`)
    else if (stage === 'cleanup problem') log(`  ${line}`)
  }
}

/** @param {CommitsOutcome} outcome @param {number} totalSec @returns {string} `95 s (install 40 s, runs 50 s)` */
const timeTaken = (outcome, totalSec) =>
  `${Math.round(totalSec)} s (install ${Math.round(outcome.installSec)} s, runs ${Math.round(outcome.runSec)} s)`

/**
 * The paragraph above a comparison in markdown: both commits, the rounds, what was measured and the time it took.
 * @param {CommitsOutcome} outcome @param {number} rounds @param {string} measured @param {string} took
 * @returns {string}
 */
function markdownHeading (outcome, rounds, measured, took) {
  return `Base \`${outcome.base.commit.slice(0, 12)}\` (${outcome.base.ref}: ${outcome.base.subject}) ` +
    `against head \`${outcome.head.commit.slice(0, 12)}\` ` +
    `(${outcome.head.ref}: ${outcome.head.subject}), ${rounds} alternating round${rounds === 1 ? '' : 's'} on one machine, ` +
    `${measured}; ${took}.\n\n`
}

/**
 * @param {ComparisonPart} part
 * @param {import('../../suite/plan/plan-parts.js').ShardSpec} shard @param {number} cells of the whole plan
 */
function partLine (part, shard, cells) {
  const subsets = part.subsets.map((subset) => `${subset.frameworks.join(',')} × ${subset.scenarios.join(',')}`).join('; ')
  return `part ${shard.index}/${shard.count} of the plan (${part.cells} of ${cells} cells: ${subsets || 'none'})`
}

const CI = LOAD_PROFILES[COMPARISON_PROFILE]
const COUNTS = instructions.comparison.defaults

/** Run options compare-commits sets itself for every round's `dyno run`. */
const OWN_RUN_FLAGS = new Set([
  '--repeats',
  '--out',
  '--seed',
  '--profile',
  '--scenarios',
  '--measure',
  '--count-jobs',
  '--shard',
  '--plan',
  '--app'
])

/**
 * The `dyno run` options of every round of compare-commits, for both commits' harnesses: the profile, scenarios and measure it settled on,
 * and the run options the user gave, as typed. Only those are passed on, so an older commit's harness is not handed an option it never
 * had (nor --measure, when it is what `dyno run` measures anyway).
 * @param {import('../cli/parse-command-line.js').ParsedOptions} options of compare-commits
 * @returns {string[]}
 */
export function forwardedRunArgs ({ values, typed }) {
  const runFlags = new Set(RUN_OPTIONS.map(flagName))
  const given = Object.entries(typed).filter(([name]) => runFlags.has(name) && !OWN_RUN_FLAGS.has(name))
  return [
    '--profile', values.profile, '--scenarios', values.scenarios.join(','),
    ...(DEFAULT_MEASURE.name === values.measure ? [] : ['--measure', values.measure]),
    ...given.flatMap(([name, text]) => text === true ? [name] : [name, text])
  ]
}

/** @type {import('../cli/command.js').Command} */
export const COMPARE_COMMITS_COMMAND = {
  name: 'compare-commits',
  args: ['<baseRef>', '<headRef>'],
  summary: 'Check two commits out into temporary git worktrees, install each, run them in alternating rounds and compare them like ' +
    `\`dyno compare\`: by instructions per request where valgrind is installed (${COUNTS.rounds(CI)} round, on ` +
    `${COUNTS.scenarios(CI)?.join(', ')} unless --scenarios says otherwise), else by wall clock, saying so (--repeats, default: the ` +
    `${COMPARISON_PROFILE} profile's ${CI.repeats}); --measure chooses either`,
  options: [...COMPARE_COMMITS_RUN_OPTIONS, COMPARE_FORMAT, THRESHOLD, FAIL_ON],
  run: ({ positionals: [baseRef, headRef], options }, io, signal) => compareCommitsCommand(baseRef, headRef, ({
    ...options.values,
    // Only the SUTs named are installed in the worktrees; none named: each commit's own, all of them.
    frameworks: options.given.has('frameworks') ? options.values.frameworks : null,
    // By instructions, compare-commits shares the count jobs between the two sides it counts at once.
    countJobsGiven: options.given.has('countJobs')
  }), forwardedRunArgs(options), io, signal, options.planFields)
}
