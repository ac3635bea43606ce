// @ts-check
import { compareRuns } from '../../reports/compare/compare-runs.js'
import { COMPARE_FORMATTERS } from '../../reports/compare/formats/index.js'
import { failureText } from '../../reports/compare/formats/cells.js'
import { COMPARE_FORMAT, FAIL_ON, PAIRED, THRESHOLD } from '../options/compare-options.js'

/**
 * `dyno compare BASELINE CANDIDATE`: prints the comparison in the chosen format on stdout.
 * Exit code: 0, or 1 when a condition named by `--fail-on` holds (said on stderr); unreadable or
 * incomparable inputs throw a DynoError (exit 2).
 * @param {string} baseline
 * @param {string} candidate
 * @param {{ format: string, thresholdPercent: number | null, paired:
 *   boolean, failOn: string[] }} options parsed (parse-command-line.js)
 * @param {import('../cli/io.js').Io} io
 * @returns {Promise<number>}
 */
export async function compareCommand (baseline, candidate, options, io) {
  const comparison = compareRuns([baseline], [candidate], { thresholdPercent: options.thresholdPercent, paired: options.paired })
  io.stdout.write(COMPARE_FORMATTERS[options.format](comparison) + '\n')
  const failure = failureText(comparison, options.failOn)
  if (failure === null) return 0
  io.stderr.write(`dyno compare: ${failure}\n`)
  return 1
}

/** @type {import('../cli/command.js').Command} */
export const COMPARE_COMMAND = {
  name: 'compare',
  args: ['<baseline>', '<candidate>'],
  summary: 'Compare two runs (run directories, directories of runs, or result files): per SUT, scenario and connections, req/s and p99 ' +
    '(or instructions per request) with the change, its 95% interval, a rank test over the repeats and a verdict',
  options: [COMPARE_FORMAT, THRESHOLD, PAIRED, FAIL_ON],
  run: ({ positionals: [baseline, candidate], options }, io) => compareCommand(baseline, candidate, options.values, io)
}
