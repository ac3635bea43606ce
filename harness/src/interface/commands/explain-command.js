// @ts-check
import { explainRuns } from '../../reports/explain/explain-runs.js'
import { explainTimelineRecords, isTimelineRecordPath } from '../../history/timeline/timeline-explain.js'
import { DynoError } from '../../platform/errors.js'
import { explanationText } from '../../reports/explain/explain-text.js'
import { explanationsHtml } from '../../reports/explain/explain-html.js'
import { oneOf, wholeNumber } from '../../platform/options/option-parsers.js'

const EXPLAIN_FORMATS = ['text', 'markdown', 'json', 'html']

/** @type {import('../../platform/options/option-spec.js').OptionSpec} */
const EXPLAIN_FORMAT = {
  field: 'format',
  partOfPlan: false,
  flag: '--format <name>',
  description: 'Output: text (tables for the terminal), markdown (for a report or a pull request), json (every figure), html (one ' +
    'page that opens offline: the tables and a difference flame graph of every kept function)',
  parse: oneOf(EXPLAIN_FORMATS),
  default: 'text'
}

/** @type {import('../../platform/options/option-spec.js').OptionSpec} */
const TOP_FUNCTIONS = {
  field: 'top',
  partOfPlan: false,
  flag: '--top <n>',
  description: 'How many functions each list shows: those whose own instructions changed most, the new and the gone',
  parse: wholeNumber({ min: 1, max: 250 }),
  default: 10
}

/**
 * `dyno explain BASELINE CANDIDATE`: why a count changed, by layer and by function, for each pair of counted cells.
 * @param {string} baseline @param {string} candidate @param {{ format: string, top: number }} options
 * @param {import('../cli/io.js').Io} io
 * @returns {Promise<number>}
 */
export async function explainCommand (baseline, candidate, options, io) {
  const timeline = [baseline, candidate].filter(isTimelineRecordPath).length
  if (timeline === 1) {
    throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `one of ${baseline} and ${candidate} is a timeline record and the other is not; ` +
      'allowed: two records of data directories, or two runs or results')
  }
  const explained = timeline === 2
    ? explainTimelineRecords(baseline, candidate, { top: options.top })
    : explainRuns(baseline, candidate, { top: options.top })
  if (options.format === 'json') io.stdout.write(JSON.stringify(explained, null, 2) + '\n')
  else if (options.format === 'html') {
    io.stdout.write(explanationsHtml(explained.explanations))
  } else {
    const markdown = options.format === 'markdown'
    io.stdout.write(explained.explanations.map((explanation) => explanationText(explanation, { markdown })).join('\n'))
  }
  for (const cell of explained.unpaired) io.stderr.write(`dyno explain: ${cell} has no count on the other side to explain it against\n`)
  return 0
}

/** @type {import('../cli/command.js').Command} */
export const EXPLAIN_COMMAND = {
  name: 'explain',
  args: ['<baseline>', '<candidate>'],
  summary: 'Why an instruction count changed: for each counted cell of the two runs (run directories, directories of runs, or result ' +
    'files), or between two records of a timeline\'s data directory (DATA/records/<id>.json), the change per layer (the route\'s ' +
    'work, the SUT\'s code, its framework and dependencies, Node, the collector, the runtime), the functions whose own instructions ' +
    'changed most, and those new and gone, each beyond the cell\'s A/A noise',
  options: [EXPLAIN_FORMAT, TOP_FUNCTIONS],
  run: ({ positionals: [baseline, candidate], options }, io) => explainCommand(baseline, candidate, options.values, io)
}
