// @ts-check
// Why a row of a comparison regressed or improved, in brief: the three functions whose instructions with their native calls changed
// most, and the layers whose change is beyond the noise with their share of the whole (explain-change.js). From the first count of each
// side; none where a side's count has no functions (another runtime, a count of a dyno from before).
import { isDynoError } from '../../platform/errors.js'
import { formatInteger } from '../../platform/text/format.js'
import { explainChange } from './explain-change.js'
import { shownName } from './explain-text.js'

/**
 * @typedef {object} RowExplanation
 * @property {{ name: string, file: string | null, line: number | null, package: string | null, layer: string, chargedChange: number }[]}
 *   functions the top three, largest change first
 * @property {{ layer: string, label: string, shareOfChange: number | null }[]} layers beyond the noise, largest change first
 */

/** How many functions a row names. */
const ROW_FUNCTIONS = 3

/**
 * @param {{ baseline: { record: import('../../records/result-record.js').ResultRecord, file: string }[],
 *   candidate: { record: import('../../records/result-record.js').ResultRecord, file: string }[] }} cell
 * @returns {RowExplanation | null}
 */
export function rowExplanation ({ baseline: [before], candidate: [after] }) {
  if (!before?.record.instructions || !after?.record.instructions) return null
  try {
    const explained = explainChange(before, after, { top: ROW_FUNCTIONS })
    return {
      functions: explained.charged.map(({ fn, chargedChange }) => ({
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
  const layers = why.layers.map((layer) => `${layer.label} ${layer.shareOfChange === null ? '' : `${layer.shareOfChange > 0 ? '+' : ''}` +
    `${layer.shareOfChange}%`}`)
  return `why, in instructions per request with their native calls: ${functions.join(', ') || 'no function beyond the noise'}; ` +
    `by layer, share of the change: ${layers.join(', ') || 'none beyond the noise'} (dyno explain gives the whole)`
}
