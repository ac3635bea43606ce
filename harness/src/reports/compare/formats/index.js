// @ts-check
import { DynoError } from '../../../platform/errors.js'
import { formatCompareBmf } from './bmf.js'
import { formatCompareGab } from './gab.js'
import { formatCompareJson } from './json.js'
import { formatCompareMarkdown } from './markdown.js'
import { formatCompareTable } from './table.js'

/**
 * @typedef {import('../build-comparison.js').Comparison} Comparison
 * @typedef {import('../compare-defaults.js').COMPARE_FORMATS[number]} CompareFormat
 */

/**
 * A github-action-benchmark format, which holds one metric of one measure.
 * @param {'requestsPerSec' | 'p99Us' | 'instructionsPerRequest'} metric
 * @param {import('../read-inputs.js').Measure} measure
 * @param {CompareFormat} name
 * @returns {(comparison: Comparison) => string}
 */
const gabOf = (metric, measure, name) => (comparison) => {
  if (comparison.settings.measure !== measure) {
    const allowed = comparison.settings.measure === 'instructions' ? 'table, md, json, bmf, gab-instructions' : 'table, md, json, bmf, gab, gab-p99'
    throw new DynoError('DYNO_ERR_INVALID_OPTION',
      `--format ${name} holds ${measure} figures, and these results are ${comparison.settings.measure} results; allowed here: ${allowed}`)
  }
  return formatCompareGab(comparison, metric)
}

/**
 * Every output format of `dyno compare`, by its `--format` name.
 * @type {Record<CompareFormat, (comparison: Comparison) => string>}
 */
export const COMPARE_FORMATTERS = {
  table: formatCompareTable,
  md: formatCompareMarkdown,
  json: formatCompareJson,
  bmf: formatCompareBmf,
  gab: gabOf('requestsPerSec', 'wall-clock', 'gab'),
  'gab-p99': gabOf('p99Us', 'wall-clock', 'gab-p99'),
  'gab-instructions': gabOf('instructionsPerRequest', 'instructions', 'gab-instructions')
}
