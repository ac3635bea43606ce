// @ts-check
// The options of the comparisons (`dyno compare`, `compare-commits`, `compare-versions`): the format the comparison is written in, the
// smallest change a verdict calls, runs paired by round, and what makes the command fail.
import { MEASURES } from '../../measures/index.js'
import { flag, oneOf, percentage, subsetOf } from '../../platform/options/option-parsers.js'
import { pairsNeeded } from '../../judging/stats/wilcoxon-signed-rank.js'
import { COMPARE_DEFAULTS, FAIL_ON_CONDITIONS } from '../../reports/compare/compare-defaults.js'
import { COMPARE_FORMATS, COMPARE_FORMATS_DESCRIPTION } from '../../reports/compare/formats/index.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** @type {OptionSpec} */
export const COMPARE_FORMAT = {
  field: 'format',
  partOfPlan: false,
  flag: '--format <name>',
  description: `Output: ${COMPARE_FORMATS_DESCRIPTION}`,
  parse: oneOf(COMPARE_FORMATS),
  default: COMPARE_DEFAULTS.format
}

/** @type {OptionSpec} */
export const THRESHOLD = {
  field: 'thresholdPercent',
  partOfPlan: false,
  flag: '--threshold <percent>',
  description: 'Smallest significant change that counts as improved or regressed, in percent',
  parse: percentage({ min: 0, max: 100 }),
  default: null,
  defaultText: MEASURES.map(({ comparison: { threshold, metrics, primary } }) => 'fixedPercent' in threshold
    ? `${threshold.fixedPercent} for ${metrics[primary].label}`
    : `for ${metrics[primary].label}, each row's own A/A spread (never below ${threshold.floorPercent})`).join('; ')
}

/** @type {OptionSpec} */
export const PAIRED = {
  field: 'paired',
  flag: '--paired',
  description: 'The sides were run in alternating rounds, as compare-commits runs them: ' +
    'pair each cell\'s runs in the order they started and test the per-round ratios ' +
    `(Wilcoxon signed-rank, from ${pairsNeeded(COMPARE_DEFAULTS.alpha)} pairs; ` +
    'with fewer, or unequal counts, the row falls back to Mann–Whitney U and says so)',
  parse: flag,
  default: false
}

/** @type {OptionSpec} */
export const FAIL_ON = {
  field: 'failOn',
  partOfPlan: false,
  flag: '--fail-on <conditions>',
  description: 'Exit 1 on: regression (a significant regression beyond the threshold: of req/s, or of a count\'s program ' +
    'instructions, bytes allocated or write/read system calls per request), ' +
    'not-comparable (a row that could not be compared), or both, comma-separated',
  parse: subsetOf(FAIL_ON_CONDITIONS),
  default: [],
  defaultText: 'never'
}
