// @ts-check
// An explanation (explain-change.js) in words and tables: for the terminal, or as markdown for a report or a pull request's comment.
// Names from the counts (functions, files, packages) are the SUT's data: markdown cells escape them.
import { formatInteger } from '../../platform/text/format.js'
import { markdownCell } from '../../platform/text/markdown-cell.js'
import { createTable } from '../../platform/text/table.js'

/**
 * @typedef {import('./explain-change.js').Explanation} Explanation
 * @typedef {import('./explain-change.js').FunctionChange} FunctionChange
 * @typedef {{ head: string[], rows: string[][], alignRight: number[] }} Grid
 */

/** @param {number} value @returns {string} `+1,204` */
export const signed = (value) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${formatInteger(Math.round(Math.abs(value)))}`
/** @param {number | null} value @returns {string} */
export const percentText = (value) => value === null ? '-' : `${value > 0 ? '+' : ''}${value.toFixed(1)}%`

/** @param {Explanation} explanation @returns {string} the answer in one line */
export function explanationHeadline ({ baseline, candidate, change, changePercent, noise }) {
  return `${baseline.label} → ${candidate.label}: ${formatInteger(baseline.instructionsPerRequest)} → ` +
    `${formatInteger(candidate.instructionsPerRequest)} instructions per request, ${signed(change)} (${percentText(changePercent)}); ` +
    `noise ±${formatInteger(noise.perRequest)} (${noise.percent}%, the A/A threshold a verdict on this cell uses)`
}

/** @param {Explanation['layers']} layers @returns {Explanation['layers']} those that cost anything on either side */
export const shownLayers = (layers) => layers.filter((layer) => layer.baseline > 0 || layer.candidate > 0)

/** @param {Explanation} explanation @returns {Grid} */
export function layerGrid ({ layers }) {
  return {
    head: ['layer', 'baseline', 'candidate', 'change', 'share of change', ''],
    alignRight: [1, 2, 3, 4],
    rows: shownLayers(layers).map((layer) => [
      layer.label,
      formatInteger(Math.round(layer.baseline)),
      formatInteger(Math.round(layer.candidate)),
      signed(layer.change),
      percentText(layer.shareOfChange),
      layer.withinNoise ? 'within noise' : ''
    ])
  }
}

/** The longest function name shown: a C++ name without its arguments can still run long. */
const SHOWN_NAME_MAX_CHARS = 90

/** @param {string} name @returns {string} a C++ name without its argument list, cut to fit a table */
export function shownName (name) {
  let depth = 0
  let end = name.length
  for (let index = 0; index < name.length && end === name.length; index++) {
    if (name[index] === '<') depth += 1
    else if (name[index] === '>') depth -= 1
    else if (name[index] === '(' && depth === 0 && index > 0) end = index
  }
  const bare = name.slice(0, end)
  return bare.length > SHOWN_NAME_MAX_CHARS ? `${bare.slice(0, SHOWN_NAME_MAX_CHARS - 1)}…` : bare
}

/** @param {FunctionChange} entry @returns {string} its script and line (`express/lib/request.js:469, was :456`), none for native code */
function placeOf ({ fn, movedFromLine }) {
  if (fn.file === null) return ''
  if (fn.line === null) return fn.file
  return `${fn.file}:${fn.line}${movedFromLine === null ? '' : `, was :${movedFromLine}`}`
}

/** @param {FunctionChange[]} entries @param {'own' | 'charged'} by @returns {Grid} */
export function functionGrid (entries, by) {
  return {
    head: by === 'own'
      ? ['own change', 'baseline → candidate', 'with its native calls', 'package or layer', 'function', 'where']
      : ['change with its native calls', 'own change', 'package or layer', 'function', 'where'],
    alignRight: by === 'own' ? [0, 1, 2] : [0, 1],
    rows: entries.map((entry) => [
      ...(by === 'own'
        ? [signed(entry.selfChange), `${formatInteger(Math.round(entry.baselineSelf))} → ${formatInteger(Math.round(entry.candidateSelf))}`,
            signed(entry.chargedChange)]
        : [signed(entry.chargedChange), signed(entry.selfChange)]),
      entry.fn.package ?? entry.fn.layer,
      shownName(entry.fn.name),
      placeOf(entry)
    ])
  }
}

/**
 * @param {Explanation} explanation @param {{ markdown: boolean }} format
 * @returns {string}
 */
export function explanationText (explanation, { markdown }) {
  const grid = markdown ? markdownGrid : terminalGrid
  const parts = [markdown ? `### ${markdownCell(explanationHeadline(explanation))}` : explanationHeadline(explanation), '']
  parts.push('By layer (each function with the native code it ran charged to it):', '', grid(layerGrid(explanation)), '')
  parts.push(`The layers add up to ${signed(explanation.layersChange)} of ${signed(explanation.change)} per request.`, '')
  for (const { title, entries, by } of functionSections(explanation)) {
    if (entries.length === 0) continue
    parts.push(`${title} (beyond ±${formatInteger(explanation.noise.perRequest)} per request):`, '', grid(functionGrid(entries, by)), '')
  }
  if (explanation.charged.length + explanation.functions.length + explanation.appeared.length + explanation.vanished.length === 0) {
    const noise = formatInteger(explanation.noise.perRequest)
    parts.push(`No function's instructions changed by more than the noise (±${noise} per request).`, '')
  }
  return parts.join('\n')
}

/**
 * @param {Explanation} explanation
 * @returns {{ title: string, entries: FunctionChange[], by: 'own' | 'charged' }[]} its lists of functions, each with its title
 */
export const functionSections = (explanation) => [
  { title: 'Whose code changed: functions by their change with the native code they ran', entries: explanation.charged, by: 'charged' },
  { title: 'Where it is spent: functions by the change of their own instructions', entries: explanation.functions, by: 'own' },
  { title: 'New in the candidate', entries: explanation.appeared, by: 'own' },
  { title: 'Gone from the candidate', entries: explanation.vanished, by: 'own' }
]

/** @param {Grid} grid */
function terminalGrid ({ head, rows, alignRight }) {
  const table = createTable(head, { alignRight })
  table.push(...rows)
  return table.toString()
}

/** @param {Grid} grid */
function markdownGrid ({ head, rows, alignRight }) {
  const line = (/** @type {string[]} */ cells) => `| ${cells.map(markdownCell).join(' | ')} |`
  const rule = head.map((_, index) => alignRight.includes(index) ? '---:' : '---')
  return [line(head), `|${rule.join('|')}|`, ...rows.map(line)].join('\n')
}
