// @ts-check
import { measureNamed } from '../../measures/index.js'
import { buildComparison } from '../../reports/compare/build-comparison.js'
import { COMPARE_DEFAULTS } from '../../reports/compare/compare-defaults.js'
import { COMPARE_FORMATTERS } from '../../reports/compare/formats/index.js'
import { failureText } from '../../reports/compare/formats/cells.js'
import { variantSides } from '../../reports/compare/variant-sides.js'
import { DynoError } from '../../platform/errors.js'
import { readRun } from '../../records/read-run.js'
import { subjectCatalogue } from '../../subjects/suts/subject-catalogue.js'
import { parseFrameworkEntry } from '../../subjects/variants/framework-entry.js'
import { runBenchmarks } from '../runs/run-benchmarks.js'
import { SEED } from '../options/plan-options.js'
import { COMPARE_FORMAT, FAIL_ON, THRESHOLD } from '../options/compare-options.js'
import { COMPARE_VERSIONS_RUN_OPTIONS } from '../options/comparison-options.js'

/**
 * `dyno compare-versions BASELINE CANDIDATE`: two variants of one SUT's framework (`express@4.21.2 express@5.3.0`,
 * `fastify fastify@path:../fastify`), or with --app two versions of one dependency of the service, measured in one run, in rounds
 * that interleave them, and compared like compare-commits:
 * the comparison on stdout in --format, the run's progress on stderr.
 * Exit code: 0; 1 when --fail-on holds; 2 for a bad variant or option; interrupted: see main.
 * @param {string} baseline @param {string} candidate framework entries, as `--frameworks` takes them
 * @param {import('../../platform/options/option-spec.js').OptionValues &
 *   Omit<import('../../suite/prepare-run.js').RunFields, 'frameworks' | 'shard' | 'planOnly'> & { format: string, failOn: string[],
 *   thresholdPercent: number }} options the parsed options of compare-versions (parse-command-line.js)
 * @param {import('../cli/io.js').Io} io
 * @param {AbortSignal} signal
 * @param {Set<string>} planFields the fields of its options that decide what it measures (parse-command-line.js)
 * @returns {Promise<number>}
 */
export async function compareVersionsCommand (baseline, candidate, options, io, signal, planFields) {
  const { variants } = subjectCatalogue(options.app)
  const [base, cand] = [baseline, candidate].map((entry) => parseFrameworkEntry(entry.trim()))
  if (base.name !== cand.name || base.text === cand.text) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', `compare-versions compares ${variants.pair}, got \`${baseline}\` and \`${candidate}\``)
  }
  variants.check([base.text, cand.text], 'compare-versions')
  const started = performance.now()
  const outcome = await runBenchmarks({ ...options, frameworks: [base.text, cand.text], shard: null, planOnly: false },
    { stdout: io.stderr, stderr: io.stderr }, signal, planFields)
  if (signal.aborted) return outcome.exitCode
  const { records } = readRun(outcome.runDir)
  const labels = { baseline: variants.labelOf(records, base.text), candidate: variants.labelOf(records, cand.text) }
  const comparison = buildComparison(variantSides(outcome.runDir, labels), {
    thresholdPercent: options.thresholdPercent, alpha: COMPARE_DEFAULTS.alpha, paired: true
  })
  const measure = measureNamed(options.measure)
  const measured = measure.comparison.comparedBy(options.profile)
  if (options.format === 'md') {
    io.stdout.write(
      `Baseline \`${labels.baseline}\` against candidate \`${labels.candidate}\` (${variants.describe(records, base.text)}; ` +
        `${variants.describe(records, cand.text)}), ${options.repeats} round${options.repeats === 1 ? '' : 's'} interleaved in one ` +
        `run on one machine, ${measured}; ${Math.round((performance.now() - started) / 1000)} s.\n\n`
    )
  }
  io.stdout.write(COMPARE_FORMATTERS[/** @type {keyof typeof COMPARE_FORMATTERS} */ (options.format)](comparison) + '\n')
  io.stderr.write(`dyno compare-versions: results in ${outcome.runDir}\n`)
  const failure = failureText(comparison, options.failOn)
  if (failure === null) return 0
  io.stderr.write(`dyno compare-versions: ${failure}\n`)
  return 1
}

/** @type {import('../cli/command.js').Command} */
export const COMPARE_VERSIONS_COMMAND = {
  name: 'compare-versions',
  args: ['<baseline>', '<candidate>'],
  summary:
    "Measure two variants of one SUT's framework (`express@4.21.2 express@5.3.0`; a version, range, dist-tag, `path:<dir>` of a " +
    "checkout, or the SUT's own pin by its bare name) in one run, their rounds interleaved, each installed into a cached copy of the SUT " +
    'package, and compare them like compare-commits (by instructions on plaintext, json, params where valgrind is installed, ' +
    'else by wall clock, saying so). With --app, two versions of one dependency of your service (`express@4.22.1 express@5.1.0`), ' +
    "each installed into a cached copy of the service with its own lockfile, on the service's scenarios",
  options: [...COMPARE_VERSIONS_RUN_OPTIONS, SEED, COMPARE_FORMAT, THRESHOLD, FAIL_ON],
  run: ({ positionals: [baseline, candidate], options }, io, signal) =>
    compareVersionsCommand(baseline, candidate, options.values, io, signal, options.planFields)
}
