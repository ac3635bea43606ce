// @ts-check
import { DynoError } from '../../../platform/errors.js'
import { MEASURES, measureNamed } from '../../../measures/index.js'
import { formatCompareBmf } from './bmf.js'
import { formatCompareComment } from './comment.js'
import { formatCompareGab } from './gab.js'
import { formatCompareJson } from './json.js'
import { formatCompareMarkdown } from './markdown.js'
import { formatCompareTable } from './table.js'

/**
 * @typedef {import('../../../records/comparison-record.js').Comparison} Comparison
 */

/** The formats every measure's comparison is written in, with what `--format`'s help says of each. */
const GENERAL_FORMATS = {
  table: { write: formatCompareTable, description: 'table (terminal)' },
  md: { write: formatCompareMarkdown, description: 'md (markdown)' },
  comment: { write: formatCompareComment, description: 'comment (markdown for a pull request, regressed rows first)' },
  json: { write: formatCompareJson, description: 'json' },
  bmf: { write: formatCompareBmf, description: 'bmf (Bencher Metric Format)' }
}
const GENERAL_FORMATTERS = Object.fromEntries(Object.entries(GENERAL_FORMATS).map(([name, { write }]) => [name, write]))

/**
 * A github-action-benchmark format, which holds one metric of the measure that declares it (its comparison's `gabFormats`).
 * @param {string} name
 * @returns {(comparison: Comparison) => string}
 */
const gabFormat = (name) => (comparison) => {
  const spec = measureNamed(comparison.settings.measure).comparison
  const format = spec.gabFormats[name]
  if (!format) {
    const owner = MEASURES.find((measure) => name in measure.comparison.gabFormats)?.name
    const allowed = [...Object.keys(GENERAL_FORMATTERS), ...Object.keys(spec.gabFormats)].join(', ')
    throw new DynoError('DYNO_ERR_INVALID_OPTION',
      `--format ${name} holds ${owner} figures, and these results are ${comparison.settings.measure} results; allowed here: ${allowed}`)
  }
  return formatCompareGab(comparison, format)
}

const GAB_FORMATS = MEASURES.flatMap((measure) => Object.entries(measure.comparison.gabFormats))

/**
 * Every output format of `dyno compare`, by its `--format` name: the general ones, then each measure's github-action-benchmark ones.
 * @type {Record<string, (comparison: Comparison) => string>}
 */
export const COMPARE_FORMATTERS = Object.freeze({
  ...GENERAL_FORMATTERS,
  ...Object.fromEntries(GAB_FORMATS.map(([name]) => [name, gabFormat(name)]))
})

/** The `--format` names, in the order the help lists them. */
export const COMPARE_FORMATS = Object.freeze(Object.keys(COMPARE_FORMATTERS))

/** What `--format`'s help says of the formats: `table (terminal), …, gab-p99 (github-action-benchmark customSmallerIsBetter: p99 ms)`. */
export const COMPARE_FORMATS_DESCRIPTION = [
  ...Object.values(GENERAL_FORMATS).map(({ description }) => description),
  ...GAB_FORMATS.map(([name, { biggerIsBetter, holds }]) =>
    `${name} (github-action-benchmark ${biggerIsBetter ? 'customBiggerIsBetter' : 'customSmallerIsBetter'}: ${holds})`)
].join(', ')
