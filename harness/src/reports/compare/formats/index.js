// @ts-check
import { DynoError } from '../../../platform/errors.js'
import { MEASURES, measureNamed } from '../../../measures/index.js'
import { formatCompareBmf } from './bmf.js'
import { formatCompareGab } from './gab.js'
import { formatCompareJson } from './json.js'
import { formatCompareMarkdown } from './markdown.js'
import { formatCompareTable } from './table.js'

/**
 * @typedef {import('../../../records/comparison-record.js').Comparison} Comparison
 * @typedef {import('../compare-defaults.js').COMPARE_FORMATS[number]} CompareFormat
 */

/** The formats every measure's comparison is written in. */
const GENERAL_FORMATTERS = {
  table: formatCompareTable,
  md: formatCompareMarkdown,
  json: formatCompareJson,
  bmf: formatCompareBmf
}

/**
 * A github-action-benchmark format, which holds one metric of the measure that declares it (its comparison's `gabFormats`).
 * @param {string} name
 * @returns {(comparison: Comparison) => string}
 */
const gabFormat = (name) => (comparison) => {
  const spec = measureNamed(comparison.settings.measure).comparison
  const metric = spec.gabFormats[name]
  if (!metric) {
    const owner = MEASURES.find((measure) => name in measure.comparison.gabFormats)?.name
    const allowed = [...Object.keys(GENERAL_FORMATTERS), ...Object.keys(spec.gabFormats)].join(', ')
    throw new DynoError('DYNO_ERR_INVALID_OPTION',
      `--format ${name} holds ${owner} figures, and these results are ${comparison.settings.measure} results; allowed here: ${allowed}`)
  }
  return formatCompareGab(comparison, /** @type {import('./gab.js').GabMetric} */ (metric))
}

/**
 * Every output format of `dyno compare`, by its `--format` name: the general ones, then each measure's github-action-benchmark ones.
 * @type {Record<CompareFormat, (comparison: Comparison) => string>}
 */
export const COMPARE_FORMATTERS = /** @type {Record<CompareFormat, (comparison: Comparison) => string>} */ ({
  ...GENERAL_FORMATTERS,
  ...Object.fromEntries(MEASURES.flatMap((measure) => Object.keys(measure.comparison.gabFormats)).map((name) => [name, gabFormat(name)]))
})
