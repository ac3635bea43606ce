// @ts-check
// The explanations a report carries: in one run, each further variant of a framework's count set against the first one the run
// lists (`--frameworks express@4.22.3,express@5.0.1`: why 5.0.1 differs) on the same scenario, runtime and connections; side by
// side, each later run's count of a cell against the first run's (Node 20 against Node 22). Only counts that kept their functions.
import { explainChange } from './explain-change.js'
import { countOfResult } from './result-count.js'
import { explanationText } from './explain-text.js'
import { explainStyle, explanationSections } from './explain-html.js'
import { escapeHtml } from '../../platform/text/html-text.js'

/**
 * @typedef {import('../../records/read-run.js').RunData} RunData
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('./explain-change.js').Explanation} Explanation
 * @typedef {{ record: ResultRecord, file: string }} Sourced
 */

/** How many functions each list of a report's explanation shows. */
const REPORT_TOP_FUNCTIONS = 5
const HEADING = 'Why the counts differ, by layer and function'

/** @param {RunData} run @returns {Sourced[]} its counts that kept their functions */
const explainable = (run) => run.records.flatMap((record, position) => {
  const profile = record.instructions?.functions
  return record.status === 'ok' && profile && profile.layers !== null && Array.isArray(profile.functions)
    ? [{ record, file: `${run.dir}/${run.index.results[position]?.file ?? ''}` }]
    : []
})

/** @param {ResultRecord} record @returns {string} the cell a count stands for, whatever its SUT's variant */
const cellOf = ({ scenario, load, sut }) => JSON.stringify([scenario.name, load.connections, sut.runtime ?? null])

/**
 * @param {RunData[]} runs one run, or several side by side
 * @returns {Explanation[]}
 */
export function reportExplanations (runs) {
  /** @type {[Sourced, Sourced][]} */
  const pairs = []
  if (runs.length === 1) {
    /** @type {Map<string, Sourced[]>} */
    const byFramework = new Map()
    for (const sourced of explainable(runs[0])) {
      const key = JSON.stringify([sourced.record.sut.name, cellOf(sourced.record)])
      byFramework.set(key, [...(byFramework.get(key) ?? []), sourced])
    }
    for (const [first, ...others] of byFramework.values()) for (const other of others) pairs.push([first, other])
  } else {
    const keyOf = (/** @type {Sourced} */ sourced) => JSON.stringify([sourced.record.sut.label ?? sourced.record.sut.name,
      sourced.record.scenario.name, sourced.record.load.connections])
    const firsts = new Map(explainable(runs[0]).map((sourced) => [keyOf(sourced), sourced]))
    for (const run of runs.slice(1)) {
      for (const sourced of explainable(run)) {
        const first = firsts.get(keyOf(sourced))
        if (first) pairs.push([first, sourced])
      }
    }
  }
  return pairs.map(([from, to]) =>
    explainChange(countOfResult(from, 'baseline'), countOfResult(to, 'candidate'), { top: REPORT_TOP_FUNCTIONS }))
}

/** @param {Explanation[]} explanations @returns {string[]} report.md's section: none without an explanation */
export function explanationsMarkdown (explanations) {
  if (explanations.length === 0) return []
  return [`## ${HEADING}`, '', ...explanations.map((explanation) => explanationText(explanation, { markdown: true })), '']
}

/** @param {Explanation[]} explanations @returns {string} report.html's section: empty without an explanation */
export function explanationsHtmlSection (explanations) {
  if (explanations.length === 0) return ''
  return `<style>${explainStyle()}</style>\n<h2>${escapeHtml(HEADING)}</h2>\n${explanationSections(explanations)}`
}
