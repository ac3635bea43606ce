// @ts-check
import { formatCompareBmf } from './bmf.js'
import { formatCompareGab } from './gab.js'
import { formatCompareJson } from './json.js'
import { formatCompareMarkdown } from './markdown.js'
import { formatCompareTable } from './table.js'

/**
 * Every output format of `dyno compare`, by its `--format` name.
 * @type {Record<import('../compare-defaults.js').COMPARE_FORMATS[number], (comparison: import('../build-comparison.js').Comparison) => string>}
 */
export const COMPARE_FORMATTERS = {
  table: formatCompareTable,
  md: formatCompareMarkdown,
  json: formatCompareJson,
  bmf: formatCompareBmf,
  gab: (comparison) => formatCompareGab(comparison, 'requestsPerSec'),
  'gab-p99': (comparison) => formatCompareGab(comparison, 'p99Us')
}
