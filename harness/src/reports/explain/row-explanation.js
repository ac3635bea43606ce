// @ts-check
// Why a row of a comparison regressed or improved, in brief: the three functions of the program whose instructions with their native
// calls changed most (the verdict is on the program's instructions: the collector and the compilers are left to the layers), and the
// layers whose change is beyond the noise with their share of the whole (explain-change.js). From the first count of each side; none
// where a side's count has no functions (another runtime, a count of a dyno from before).
import { isDynoError } from '../../platform/errors.js'
import { formatInteger } from '../../platform/text/format.js'
import { explainChange } from './explain-change.js'
import { countOfResult } from './result-count.js'
import { shownName } from './explain-text.js'

/** @typedef {import('../../records/comparison-record.js').RowExplanation} RowExplanation */

/** How many functions a row names. */
const ROW_FUNCTIONS = 3
/** The layers a count's verdict leaves out of the program's instructions. */
const OUTSIDE_THE_PROGRAM = ['collector', 'compiler']

/**
 * @param {{ baseline: { record: import('../../records/result-record.js').ResultRecord, file: string }[],
 *   candidate: { record: import('../../records/result-record.js').ResultRecord, file: string }[] }} cell
 * @returns {RowExplanation | null}
 */
export function rowExplanation ({ baseline: [before], candidate: [after] }) {
  if (!before?.record.instructions || !after?.record.instructions) return null
  try {
    // Enough that three of the program's are left when the collector's and the compilers' are set aside.
    const explained = explainChange(countOfResult(before, 'baseline'), countOfResult(after, 'candidate'),
      { top: ROW_FUNCTIONS * (1 + OUTSIDE_THE_PROGRAM.length) })
    return {
      functions: explained.charged.filter(({ fn }) => !OUTSIDE_THE_PROGRAM.includes(fn.layer)).slice(0, ROW_FUNCTIONS)
        .map(({ fn, chargedChange }) => ({
          name: fn.name, file: fn.file, line: fn.line, package: fn.package, layer: fn.layer, chargedChange
        })),
      layers: explained.layers.filter((layer) => !layer.withinNoise)
        .map(({ layer, label, shareOfChange }) => ({ layer, label, shareOfChange }))
    }
  } catch (error) {
    if (isDynoError(error)) return null
    throw error
  }
}

/** @param {RowExplanation} why @returns {string} `why: +54,228 next (router/index.js:189), …; by layer: …` */
export function rowExplanationText (why) {
  const signed = (/** @type {number} */ value) => `${value >= 0 ? '+' : '−'}${formatInteger(Math.round(Math.abs(value)))}`
  const functions = why.functions.map((fn) => `${signed(fn.chargedChange)} ${shownName(fn.name)} (` +
    `${fn.file === null ? fn.layer : `${fn.file}${fn.line === null ? '' : `:${fn.line}`}`})`)
  const share = (/** @type {number | null} */ value) => value === null ? '' : ` ${value > 0 ? '+' : ''}${value}%`
  const layers = why.layers.map((layer) => `${layer.label}${share(layer.shareOfChange)}`)
  return `why, in instructions per request with their native calls: ${functions.join(', ') || 'no function beyond the noise'}; ` +
    `by layer, share of the change: ${layers.join(', ') || 'none beyond the noise'} (dyno explain gives the whole)`
}
