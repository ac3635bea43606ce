// @ts-check
// Each step the site lists, explained by the functions of its two counts (reports/explain): a page of its own, linked from the step,
// where both records kept their functions (counts of a dyno from before did not, nor counts of other runtimes than Node).
import { explainChange } from '../../reports/explain/explain-change.js'
import { explanationsHtml } from '../../reports/explain/explain-html.js'
import { countOfTimelineRecord } from '../timeline/timeline-explain.js'

/**
 * @typedef {import('../timeline/timeline-dataset.js').TimelineRecord} TimelineRecord
 * @typedef {{ fromId: string, toId: string }} RecordPair
 */

/** How many functions each list of a step's page shows. */
const STEP_TOP_FUNCTIONS = 15

/** @param {RecordPair} step @returns {string} the page's path in the site; record ids are 24 hex digits, checked when read */
export const explanationPageOf = ({ fromId, toId }) => `explain/${fromId}-${toId}.html`

/**
 * @param {Map<string, TimelineRecord>} byId every record, with its function list where it kept one (site-command.js)
 * @param {RecordPair[]} steps
 * @returns {{ file: string, html: string }[]} one page per pair of records whose both counts kept their functions
 */
export function stepExplanationPages (byId, steps) {
  /** @type {Map<string, string>} */
  const pages = new Map()
  for (const step of steps) {
    const file = explanationPageOf(step)
    const from = byId.get(step.fromId)
    const to = byId.get(step.toId)
    if (pages.has(file) || !from || !to || !Array.isArray(from.functions?.functions) || !Array.isArray(to.functions?.functions)) continue
    const explanation = explainChange(countOfTimelineRecord('', from, 'baseline'), countOfTimelineRecord('', to, 'candidate'),
      { top: STEP_TOP_FUNCTIONS })
    pages.set(file, explanationsHtml([explanation]))
  }
  return [...pages].map(([file, html]) => ({ file, html }))
}
