// @ts-check
import { join, resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { readRun } from '../../records/read-run.js'
import { resolveRuntimeTarget } from '../../subjects/runtimes/runtime-targets.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { npmPackageProblem, registryReleases } from '../../history/timeline/registry-releases.js'
import { chooseReleases } from '../../history/timeline/release-rules.js'
import { appendToDataset, openDataset, recordProblem } from '../../history/timeline/timeline-dataset.js'
import { timelineRecordsOf } from '../../history/timeline/timeline-records.js'
import { checkAppendedRecords } from '../../history/timeline/appended-records.js'
import { withoutHeldReleases } from '../../history/timeline/held-releases.js'
import { countLoadOf } from '../../measures/instructions/instructions.js'
import { parseFrameworkEntry } from '../../subjects/variants/framework-entry.js'
import { runBenchmarks, runOrPlan } from '../runs/run-benchmarks.js'
import { oneOf, wholeNumber } from '../../platform/options/option-parsers.js'
import { DEFAULT_RELEASE_RULE, RELEASE_RULES } from '../../history/timeline/release-rules.js'
import { INSTRUCTIONS_OPTIONS } from '../../measures/instructions/instructions-options.js'
import { frameworkRangeList } from '../cli/option-parsers.js'
import { parseOptions } from '../cli/parse-command-line.js'
import { RUN_OPTIONS } from '../cli/option-table.js'
import { CACHE_DIR, OUT, READY_TIMEOUT } from '../options/output-options.js'
import { PLAN_ONLY, SEED, SHARD } from '../options/plan-options.js'
import { RUNTIME, SCENARIOS_OPTION } from '../options/subject-options.js'

/** The options of a timeline that are not `dyno run`'s, or that it sets itself for the run. */
const OWN_FLAGS = new Set(['--frameworks', '--releases', '--latest-majors', '--runtime', '--scenarios'])

/**
 * `dyno timeline DATA --frameworks express@>=4.18`: the releases of each framework in its range (thinned by `--releases`), on each
 * runtime and scenario, counted in one `dyno run --measure instructions` (with its count cache: a release counted before is not
 * counted again), and appended to the data directory: only what it does not hold yet.
 * Exit code: 0 when the run ended (a release that did not install or count is a record with its reason); 2 for a bad option,
 * range, runtime or data directory, before anything is measured; interrupted: see main, what ended before is appended.
 * @param {string} dataDir as typed @param {import('../cli/parse-command-line.js').ParsedOptions} parsed the options of `dyno timeline`
 * @param {import('../cli/io.js').Io} io @param {AbortSignal} signal
 * @param {(typed: Record<string, string | true>) => import('../cli/parse-command-line.js').ParsedOptions} parseRunOptions the options of
 *   `dyno run`, parsed from flags as typed (the command line's parser: the run's defaults are applied there, once)
 * @returns {Promise<number>}
 */
export async function timelineCommand (dataDir, parsed, io, signal, parseRunOptions) {
  const options = parsed.values
  if (!options.frameworks) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', '`--frameworks` is required: SUTs each with the range of its framework\'s releases ' +
      '(`express@>=4.18.0`, `fastify@^4 || ^5`)')
  }
  const dir = resolve(REPO_ROOT, dataDir)
  const held = openDataset(dir)
  for (const runtime of options.runtimes) {
    const { problem } = resolveRuntimeTarget(runtime)
    if (problem) {
      throw new DynoError(
        'DYNO_ERR_UNKNOWN_RUNTIME',
        `\`--runtime ${runtime}\` is not installed here (${problem}); a timeline measures every ` + 'release on it'
      )
    }
  }
  const forwarded = Object.fromEntries(Object.entries(parsed.typed).filter(([flag]) => !OWN_FLAGS.has(flag)))
  const runOptions = (/** @type {string[]} */ frameworks) => parseRunOptions({
    ...forwarded,
    '--measure': 'instructions',
    '--frameworks': frameworks.join(','),
    '--runtime': options.runtimes.join(','),
    '--scenarios': options.scenarios.join(',')
  })
  // The settings every count of this run is made with, and so the key its record would be held under.
  const load = countLoadOf(runOptions(options.frameworks.map((/** @type {string} */ text) => parseFrameworkEntry(text).name)).values)
  const runtimes = options.runtimes.map((/** @type {string} */ name) => {
    const { target } = resolveRuntimeTarget(name)
    return { name, kind: String(target?.kind), version: String(target?.version) }
  })
  const releases = withoutHeldReleases(await chosenReleases(options, signal), held, { runtimes, scenarios: options.scenarios, load })
  for (const { entry, alreadyHeld, listed } of releases) {
    io.stderr.write(`dyno timeline: ${entry}: ${listed.length} release${listed.length === 1 ? '' : 's'} (${options.releases}` +
      `${options.latestMajors ? `, the newest ${options.latestMajors} major${options.latestMajors === 1 ? '' : 's'}` : ''}): ` +
      `${listed.map((release) => release.version).join(', ')}\n`)
    if (alreadyHeld.length > 0) {
      io.stderr.write(`dyno timeline: ${entry}: ${alreadyHeld.length} of them counted on every runtime and scenario with these ` +
        `settings, held in ${dir} and not counted again: ${alreadyHeld.map((release) => release.version).join(', ')}\n`)
    }
  }
  const toCount = releases.flatMap(({ name, chosen }) => chosen.map((release) => `${name}@${release.version}`))
  if (toCount.length === 0) {
    io.stdout.write(`timeline: nothing to count: ${dir} holds every release asked for, on every runtime and scenario\n`)
    return 0
  }
  const run = runOptions(toCount)
  if (options.planOnly) return runOrPlan(run.values, io, signal, run.planFields)
  const outcome = await runBenchmarks(run.values, io, signal, run.planFields)
  const published = new Map(
    releases.flatMap(({ framework, chosen }) => chosen.map((release) => [`${framework}@${release.version}`, release.publishedAt]))
  )
  const records = checkedRecords(readRun(outcome.runDir), (framework, version) => published.get(`${framework}@${version}`) ?? null)
  const { appended, alreadyHeld } = appendToDataset(dir, held, records)
  const failed = records.filter((record) => record.status !== 'ok').length
  io.stdout.write(
    `timeline: ${appended.length} record${appended.length === 1 ? '' : 's'} appended to ${dir} (${alreadyHeld.length} already held; ` +
      `${failed} of the run's releases not counted, each a record with its reason)\n`
  )
  return outcome.exitCode === 1 ? 0 : outcome.exitCode
}

/**
 * `dyno timeline-add DATA RUN…`: the releases counted in runs made elsewhere (the parts of a matrix, merged) appended to a data
 * directory, their publish dates asked of the registry. A run comes from elsewhere: every record it makes is checked, and every
 * framework name it gives npm is a package's name, before the registry is asked or anything is appended.
 * @param {string} dataDir @param {string[]} runDirs @param {import('../cli/io.js').Io} io @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
export async function timelineAddCommand (dataDir, runDirs, io, signal) {
  const dir = resolve(REPO_ROOT, dataDir)
  const held = openDataset(dir)
  const runs = runDirs.map((runDir) => readRun(resolve(REPO_ROOT, runDir)))
  const frameworks = new Set()
  for (const run of runs) {
    run.records.forEach((record, position) => {
      if (record.sut.variant?.kind !== 'npm') return
      const problem = npmPackageProblem(record.sut.framework)
      if (problem) throw runError(run, position, `sut.framework: ${problem}`)
      frameworks.add(record.sut.framework)
    })
  }
  // Every record of every run checked before the registry is asked (a record's date is not part of its check) and before one is appended.
  for (const run of runs) checkedRecords(run, () => null)
  /** @type {Map<string, Map<string, string | null>>} */
  const dates = new Map()
  for (const framework of frameworks) {
    const known = await registryReleases(framework, { signal, entry: framework })
    dates.set(framework, new Map(known.map((release) => [release.version, release.publishedAt])))
  }
  const checked = runs.map((run) => ({
    run,
    records: checkedRecords(run, (framework, version) => dates.get(framework)?.get(version) ?? null)
  }))
  for (const { run, records } of checked) {
    const { appended, alreadyHeld } = appendToDataset(dir, held, records)
    io.stdout.write(`timeline: ${appended.length} record${appended.length === 1 ? '' : 's'} of ${run.dir} appended to ${dir} ` +
      `(${alreadyHeld.length} already held)\n`)
  }
  return 0
}

/**
 * The records a run makes, each checked as a record read back is (timeline-dataset.js), leaving out the cells an interruption cut
 * short (they say nothing of their release: the next run counts them).
 * @param {import('../../records/read-run.js').RunData} run @param {(framework: string, version: string) => string | null} publishedAt
 * @returns {import('../../history/timeline/timeline-dataset.js').TimelineRecord[]}
 * @throws {DynoError} DYNO_ERR_TIMELINE_RUN naming the result file and the field
 */
function checkedRecords (run, publishedAt) {
  const records = timelineRecordsOf(run, publishedAt).filter((record) => record.errorCode !== 'DYNO_ERR_INTERRUPTED')
  for (const record of records) {
    const problem = recordProblem(record)
    if (problem) {
      throw new DynoError(
        'DYNO_ERR_TIMELINE_RUN',
        `${join(run.dir, record.source.resultFile)} does not make a record the timeline keeps: ${problem}; ` + 'nothing was appended'
      )
    }
  }
  return records
}

/** @param {import('../../records/read-run.js').RunData} run @param {number} position @param {string} problem */
function runError (run, position, problem) {
  return new DynoError(
    'DYNO_ERR_TIMELINE_RUN',
    `${join(run.dir, run.index.results[position]?.file ?? '')}: ${problem}; nothing was appended`
  )
}

/**
 * Each entry's releases, from the registry, in its range and by the rule; a range that matches none stops everything here.
 * @param {{ frameworks: string[], releases: string, latestMajors: number }} options @param {AbortSignal} signal
 */
async function chosenReleases (options, signal) {
  const catalogue = discoverSuts()
  const chosen = []
  for (const text of options.frameworks) {
    const entry = parseFrameworkEntry(text)
    const sut = /** @type {import('../../subjects/suts/discover-suts.js').SutDescriptor} */ (
      catalogue.find((candidate) => candidate.name === entry.name)
    )
    const range = entry.spec?.kind === 'npm' ? entry.spec.text : '*'
    const releases = await registryReleases(sut.framework, { signal, entry: text })
    chosen.push({
      entry: text,
      name: entry.name,
      framework: sut.framework,
      chosen: chooseReleases(releases, { entry: text, range, rule: options.releases, latestMajors: options.latestMajors })
    })
  }
  return chosen
}

/** @type {import('../cli/command.js').Command} */
export const TIMELINE_COMMAND = {
  name: 'timeline',
  args: ['<dataDir>'],
  summary:
    'Count every release of a framework in a range (`--frameworks express@>=4.18`, thinned by --releases) on each --runtime and ' +
    'scenario, and append the counts to a data directory that keeps every record it was given (docs/timeline.md); a release the ' +
    'directory holds on every runtime and scenario is not counted again, other counts made before are reused from the count cache',
  // A timeline counts (`--measure instructions` is what it is), the releases of each framework chosen by range and rule, on each runtime
  // and scenario; the count's options, the plan's split and where things go are `dyno run`'s own.
  options: [
    {
      field: 'frameworks',
      flag: '--frameworks <entries>',
      description:
        "SUTs each with the range of its framework's releases, comma-separated: `express@>=4.18.0`, `fastify@^4 || ^5` (releases " +
        'as the registry npm is configured with lists them, prereleases left out)',
      parse: frameworkRangeList,
      default: null,
      defaultText: 'none: required'
    },
    {
      field: 'releases',
      flag: '--releases <rule>',
      description:
        'Which releases of each range are measured: ' +
        Object.entries(RELEASE_RULES)
          .map(([name, rule]) => `${name} (${rule.description})`)
          .join(', '),
      parse: oneOf(Object.keys(RELEASE_RULES)),
      default: DEFAULT_RELEASE_RULE
    },
    {
      field: 'latestMajors',
      flag: '--latest-majors <n>',
      description: 'Only the releases of the newest n majors in each range (0: every major)',
      parse: wholeNumber({ min: 0, max: 100 }),
      default: 0
    },
    RUNTIME,
    { ...SCENARIOS_OPTION, derive: undefined, defaultText: undefined, default: ['json'] },
    ...INSTRUCTIONS_OPTIONS,
    SHARD,
    PLAN_ONLY,
    SEED,
    OUT,
    CACHE_DIR,
    READY_TIMEOUT
  ],
  run: ({ positionals: [dataDir], options }, io, signal) =>
    timelineCommand(dataDir, options, io, signal, (typed) => parseOptions(RUN_OPTIONS, typed))
}

/** @type {import('../cli/command.js').Command} */
export const TIMELINE_ADD_COMMAND = {
  name: 'timeline-add',
  args: ['<dataDir>', '<runDir>', '[...runDirs]'],
  summary: 'Append the releases counted in runs of `dyno timeline` made elsewhere (the parts of a matrix, merged by `dyno merge`) to a ' +
    'data directory',
  options: [],
  run: ({ positionals: [dataDir, ...runDirs] }, io, signal) => timelineAddCommand(dataDir, runDirs, io, signal)
}

/** A base the check compares with: a commit's name or hash as git takes it, never an option. */
const GIT_REF = /^[A-Za-z0-9_][A-Za-z0-9._/~^-]{0,199}$/

/**
 * `dyno timeline-check DATA BASE [HEAD]`: a change to a data directory kept in the repository (a fork's pull request with the counts it
 * made), from BASE to HEAD (a commit git holds, never checked out: a pull request's head in a checkout of its base), holds only
 * records added, each reads back, and so does the directory of this checkout (appended-records.js).
 * @param {string} dataDir @param {string} baseRef @param {string} headRef @param {import('../cli/io.js').Io} io
 * @returns {number}
 */
export function timelineCheckCommand (dataDir, baseRef, headRef, io) {
  for (const [name, ref] of [['<base>', baseRef], ['<head>', headRef]]) {
    if (!GIT_REF.test(ref)) {
      throw new DynoError('DYNO_ERR_INVALID_OPTION', `${name} must be a commit (a hash, a branch or a tag, as git names it), got ` +
        `\`${ref.slice(0, 80)}\``)
    }
  }
  const { added, records } = checkAppendedRecords({ repoDir: REPO_ROOT, dataDir: resolve(REPO_ROOT, dataDir), baseRef, headRef })
  io.stdout.write(`timeline-check: ${added.length} record${added.length === 1 ? '' : 's'} added from ${baseRef} to ${headRef}, ` +
    `nothing else changed; ${records} records read back\n`)
  return 0
}

/** @type {import('../cli/command.js').Command} */
export const TIMELINE_CHECK_COMMAND = {
  name: 'timeline-check',
  args: ['<dataDir>', '<base>', '[head]'],
  summary: 'Check a change to a data directory kept in the repository (a pull request from a fork): from the commit <base> to [head] ' +
    '(HEAD when not given; a commit git holds, read without checking it out) it only adds record files under its records/, and every ' +
    'record reads back as `dyno timeline` reads one (schema, ids, regular files)',
  options: [],
  run: ({ positionals: [dataDir, baseRef, headRef = 'HEAD'] }, io) => Promise.resolve(timelineCheckCommand(dataDir, baseRef, headRef, io))
}
