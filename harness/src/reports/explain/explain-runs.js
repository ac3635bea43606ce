// @ts-check
// `dyno explain`'s inputs: two sides as `dyno compare` reads them (run directories, directories of runs, result files), their counted
// cells paired by scenario and connections (one count a side: the two are paired whatever their SUTs, so that two releases or two
// frameworks can be set side by side), else by SUT as well. Every pair is explained; a cell on one side only is named.
import { DynoError } from '../../platform/errors.js'
import { readSide } from '../compare/read-inputs.js'
import { sutLabel } from '../compare/match-results.js'
import { explainChange } from './explain-change.js'
import { countOfResult } from './result-count.js'

/**
 * @typedef {import('../compare/read-inputs.js').SourcedRecord} SourcedRecord
 * @typedef {{ explanations: import('./explain-change.js').Explanation[], unpaired: string[] }} ExplainedRuns
 */

/**
 * @param {string} baselinePath @param {string} candidatePath @param {{ top: number }} settings
 * @returns {ExplainedRuns}
 */
export function explainRuns (baselinePath, candidatePath, settings) {
  for (const [side, path] of [['baseline', baselinePath], ['candidate', candidatePath]]) {
    if (path === '') throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `${side}: \`\` is an empty path: give a run directory or a result file`)
  }
  const baseline = countedOf(readSide('baseline', [baselinePath]).records)
  const candidate = countedOf(readSide('candidate', [candidatePath]).records)
  if (baseline.length === 0 || candidate.length === 0) {
    const empty = baseline.length === 0 ? `baseline ${baselinePath}` : `candidate ${candidatePath}`
    throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `the ${empty} holds no instruction count that ended ok: explain reads counts ` +
      '(`dyno run --measure instructions`)')
  }
  /** @type {ExplainedRuns} */
  const explained = { explanations: [], unpaired: [] }
  const cellOf = (/** @type {SourcedRecord} */ sourced) => `${sourced.record.scenario.name} at ${sourced.record.load.connections}`
  for (const cell of new Set([...baseline, ...candidate].map(cellOf))) {
    const before = baseline.filter((sourced) => cellOf(sourced) === cell)
    const after = candidate.filter((sourced) => cellOf(sourced) === cell)
    const pairs = before.length === 1 && after.length === 1
      ? [[before[0], after[0]]]
      : before.flatMap((one) => after.filter((other) => sutLabel(other.record) === sutLabel(one.record)).map((other) => [one, other]))
    for (const [from, to] of pairs) {
      explained.explanations.push(explainChange(countOfResult(from, 'baseline'), countOfResult(to, 'candidate'), settings))
    }
    const paired = new Set(pairs.flat())
    for (const sourced of [...before, ...after].filter((entry) => !paired.has(entry))) {
      explained.unpaired.push(`${sutLabel(sourced.record)} × ${cell} connections (${sourced.file})`)
    }
  }
  return explained
}

/** @param {SourcedRecord[]} records @returns {SourcedRecord[]} the counts that ended ok */
const countedOf = (records) => records.filter((sourced) => sourced.record.status === 'ok' && sourced.record.instructions)
