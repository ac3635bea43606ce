// @ts-check
// The "Warm-up" section of the human formats (table, markdown): the cells whose warm-up classification or steady start changed,
// before → after, and under each cell whose level changed the runtime events that differ between the two sides.
import { formatInteger } from '../../../platform/text/format.js'
import { rowName } from './cells.js'

/**
 * @typedef {import('../../../records/comparison-record.js').Comparison} Comparison
 * @typedef {import('../../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../warmup-change.js').WarmupSide} WarmupSide
 * @typedef {import('../runtime-differences.js').RuntimeRates} RuntimeRates
 * @typedef {import('../runtime-differences.js').DeoptGroupSeen} DeoptGroupSeen
 * @typedef {object} WarmupEntry one cell
 * @property {string} line its warm-up on each side
 * @property {{ heading: string, items: string[] } | null} runtime what its runtime did differently, where its level changed
 */

/** What the section shows, after its title. */
export const WARMUP_NOTE =
  "baseline → candidate: each side's series (warm-up and measurement as one) classified from its change points, " +
  'the steady start in ms since the first request; a steady start changes when it moves by more than two windows or a quarter of ' +
    "the baseline's"

const rateFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })

/**
 * The section's entries: the cells whose warm-up changed, and the cells whose level changed with their runtime events; empty when
 * there are none (results written before dyno classified warm-up among them).
 * @param {Comparison} comparison
 * @param {{ code: (text: string) => string }} how code: how a function's name or position is written (markdown: a code span)
 * @returns {WarmupEntry[]}
 */
export function warmupEntries (comparison, { code }) {
  return comparison.rows.filter((row) => row.warmup?.changed || row.runtimeDifferences).map((row) => ({
    line: `${rowName(row)}: ${warmupText(row)}`,
    runtime: runtimeLines(row, code)
  }))
}

/** @param {ComparisonRow} row @returns {string} `warm-up, steady from 750 ms → slowdown ×3, warm-up ×1, steady from 3,000 ms` */
function warmupText (row) {
  const warmup = row.warmup
  if (!warmup) return 'not classified on either side'
  if (!warmup.changed) return `warm-up unchanged: ${sideText(warmup.baseline)} → ${sideText(warmup.candidate)}`
  const shift =
    warmup.steadyStartShiftMs !== null && warmup.toleranceMs !== null && Math.abs(warmup.steadyStartShiftMs) > warmup.toleranceMs
      ? ` (steady ${formatInteger(Math.abs(warmup.steadyStartShiftMs))} ms ${warmup.steadyStartShiftMs > 0 ? 'later' : 'earlier'}, ` +
        `beyond ±${formatInteger(warmup.toleranceMs)} ms)`
      : ''
  return `${sideText(warmup.baseline)} → ${sideText(warmup.candidate)}${shift}`
}

/** @param {WarmupSide} side @returns {string} `slowdown ×3, warm-up ×1, steady from 3,000 ms`, or why there is no classification */
function sideText (side) {
  if (side.classification === null) return `not classified (${side.reason})`
  const runs = side.runs.length > 1
    ? side.runs.map((entry) => `${entry.classification ?? 'not classified'} ×${entry.runs}`).join(', ')
    : side.classification
  return `${runs}${side.steadyStartMs === null ? '' : `, steady from ${formatInteger(side.steadyStartMs)} ms`}`
}

/**
 * @param {ComparisonRow} row @param {(text: string) => string} code
 * @returns {WarmupEntry['runtime']} the runtime's events per second of load on each side, and the deoptimisations of one side only
 */
function runtimeLines (row, code) {
  const differences = row.runtimeDifferences
  if (!differences) return null
  const { by, verdict, ratio, interval } = differences.levelChange
  const where =
    by === 'verdict'
      ? `where req/s ${verdict}`
      : `where the steady windows' req/s moved ×${ratio} (95% interval ${interval?.join('–')}; one run a side: the windows' spread, ` +
        'not a verdict)'
  if (differences.reason !== null || !differences.baseline || !differences.candidate) {
    return { heading: `runtime events ${where}: not compared: ${differences.reason}`, items: [] }
  }
  const [baseline, candidate] = [differences.baseline, differences.candidate]
  const heading = `runtime events ${where}, per second of load in the measure phase, baseline → candidate:`
  /** @type {string[]} */
  const lines = []
  const optimized = pairs(baseline.optimizedPerSec, candidate.optimizedPerSec)
  if (optimized) lines.push(`optimised: ${optimized}`)
  if (baseline.deoptimized && candidate.deoptimized) {
    const byCategory = pairs(baseline.deoptimized.byCategoryPerSec, candidate.deoptimized.byCategoryPerSec)
    lines.push(
      `deoptimised: ${rate(baseline.deoptimized.perSec)} → ${rate(candidate.deoptimized.perSec)}${byCategory ? ` (${byCategory})` : ''}`
    )
  }
  const kinds = [...new Set([...Object.keys(baseline.collections), ...Object.keys(candidate.collections)])]
    .filter((kind) => baseline.collections[kind]?.perSec || candidate.collections[kind]?.perSec)
  const collection = (/** @type {RuntimeRates} */ rates, /** @type {string} */ kind) => rates.collections[kind]
    ? `${rate(rates.collections[kind].perSec)} (${rate(rates.collections[kind].pausePct)}% paused)`
    : '0'
  if (kinds.length > 0) {
    lines.push(`collections: ${kinds.map((kind) => `${kind} ${collection(baseline, kind)} → ${collection(candidate, kind)}`).join(', ')}`)
  }
  const deopts = differences.deoptimizations
  if (deopts) {
    const runs = { baseline: row.files.baseline.length, candidate: row.files.candidate.length }
    const listed = (/** @type {'baseline' | 'candidate'} */ side, /** @type {DeoptGroupSeen[]} */ groups, /** @type {number} */ more) => [
      ...groups.map((group) => `deoptimised only in the ${side}: ${code(group.fn)} at ${code(group.position)}: ${group.reason} ` +
        `(${group.category}), ×${formatInteger(group.count)} in ${group.runs} of ${runs[side]} run${runs[side] > 1 ? 's' : ''}`),
      ...(more > 0 ? [`… and ${more} more group${more > 1 ? 's' : ''} of deoptimisations only in the ${side}`] : [])
    ]
    const only = [
      ...listed('candidate', deopts.onlyInCandidate, deopts.notListedCandidate),
      ...listed('baseline', deopts.onlyInBaseline, deopts.notListedBaseline)
    ]
    lines.push(...(only.length > 0 ? only : ['the same functions deoptimised, at the same places, for the same reasons, on both sides']))
  }
  return { heading, items: lines }
}

/**
 * @param {Record<string, number> | null} baseline @param {Record<string, number> | null} candidate
 * @returns {string | null} `turbofan 5.8 → 9.1, sparkplug 7.4 → 7.6`, the keys either side has above 0; null: none
 */
function pairs (baseline, candidate) {
  if (!baseline || !candidate) return null
  const keys = [...new Set([...Object.keys(baseline), ...Object.keys(candidate)])].filter((key) => baseline[key] || candidate[key])
  return keys.length > 0 ? keys.map((key) => `${key} ${rate(baseline[key] ?? 0)} → ${rate(candidate[key] ?? 0)}`).join(', ') : null
}

/** @param {number} value @returns {string} at most two decimals, `13.4`, `0.2`, `1,204` */
const rate = (value) => rateFormat.format(value)
