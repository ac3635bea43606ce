// @ts-check
// `dyno explain --format html`: the explanations (explain-change.js) of one pair of counts or several as one page that opens offline,
// in the report's look (its stylesheet inlined): the answer, the layers, a difference flame graph of the change tree (change-tree.js,
// drawn as SVG by icicle-svg.js: no script), the functions. The tables are explain-text.js's grids. Every string from the counts is
// escaped where it is inserted; the colours are computed from numbers alone.
import { readFileSync } from 'node:fs'
import { LAYER_LABELS } from '../../measures/instructions/counts/code-layers.js'
import { escapeHtml } from '../../platform/text/html-text.js'
import { formatInteger } from '../../platform/text/format.js'
import { changeColour, NOISE_GREY } from './change-colour.js'
import { functionGrid, functionSections, layerGrid, percentText, shownLayers, signed } from './explain-text.js'
import { icicleSvg, largestChange } from './icicle-svg.js'

/**
 * @typedef {import('./explain-change.js').Explanation} Explanation
 * @typedef {import('./change-tree.js').ChangeNode} ChangeNode
 * @typedef {{ head: string[], rows: string[][], alignRight: number[] }} Grid
 */

const REPORT_STYLE_FILE = new URL('../report/html/report.css', import.meta.url)
const EXPLAIN_STYLE_FILE = new URL('./html/explain.css', import.meta.url)
const FLAME_WIDTH_PX = 1200

/**
 * @param {number} changePerRequest @param {number} noisePerRequest @param {number} largestPerRequest
 * @param {boolean} [withinNoise] where another band than the cell's judged it (a layer's)
 */
const shadeOf = (changePerRequest, noisePerRequest, largestPerRequest, withinNoise = Math.abs(changePerRequest) < noisePerRequest) =>
  changeColour(changePerRequest, { withinNoise, noisePerRequest, largestPerRequest })

/**
 * @param {Explanation[]} cells
 * @returns {string} the whole page
 */
export function explanationsHtml (cells) {
  const title = cells.length === 1 ? 'Why the instruction count changed' : 'Why the instruction counts changed'
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${readFileSync(REPORT_STYLE_FILE, 'utf8')}${explainStyle()}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="note">Written by dyno explain. Instructions per request, counted under callgrind; each function's with the native code it
ran charged to it, unless a column says own. A change within the cell's noise (the A/A threshold a verdict on it uses) is grey.</p>
${cells.length === 0 ? '<p>No cell was counted on both sides.</p>' : explanationSections(cells)}
</body>
</html>
`
}

/** @returns {string} what an explanation's sections add to the report's stylesheet */
export const explainStyle = () => readFileSync(EXPLAIN_STYLE_FILE, 'utf8')

/**
 * The explanations' sections, for a page of their own or a report's (with explainStyle()): a summary line per pair first where
 * there are several.
 * @param {Explanation[]} cells at least one
 * @returns {string}
 */
export function explanationSections (cells) {
  return `${cells.length > 1 ? summaryTable(cells) : ''}\n${cells.map(cellSection).join('\n')}`
}

/** @param {{ label: string }} baseline @param {{ label: string }} candidate @returns {string} one label where both sides have it */
const pairLabel = (baseline, candidate) => baseline.label === candidate.label ? baseline.label : `${baseline.label} → ${candidate.label}`

/** @param {Explanation[]} cells @returns {string} a line per pair, linking to its section: the answer first */
function summaryTable (cells) {
  const largestPerRequest = Math.max(...cells.map((explanation) => Math.abs(explanation.change)))
  const rows = cells.map(({ baseline, candidate, change, changePercent, noise }, index) => {
    const colour = shadeOf(change, noise.perRequest, largestPerRequest)
    return `<tr><td><a href="#cell-${index}">${escapeHtml(pairLabel(baseline, candidate))}</a></td>` +
      `<td class="figure">${formatInteger(baseline.instructionsPerRequest)}</td>` +
      `<td class="figure">${formatInteger(candidate.instructionsPerRequest)}</td>` +
      `<td class="figure" style="background: ${colour}">${escapeHtml(`${signed(change)} (${percentText(changePercent)})`)}</td>` +
      `<td class="figure">±${formatInteger(noise.perRequest)}</td></tr>`
  })
  return '<table class="explain"><thead><tr><th>cell</th><th>baseline</th><th>candidate</th><th>change per request</th><th>noise</th>' +
    `</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`
}

/** @param {Explanation} explanation @param {number} index @returns {string} */
function cellSection (explanation, index) {
  const { baseline, candidate, noise } = explanation
  const beyond = Math.abs(explanation.change) >= noise.perRequest
  return `<section id="cell-${index}" class="explained">
<h2>${escapeHtml(pairLabel(baseline, candidate))}</h2>
${answerLine(explanation)}
<p class="note">Baseline <code>${escapeHtml(baseline.file)}</code>, candidate <code>${escapeHtml(candidate.file)}</code>.</p>
<h3>By layer</h3>
${gridTable(layerGrid(explanation), { column: 3, colours: layerColours(explanation) })}
<p class="note">The layers add up to ${escapeHtml(signed(explanation.layersChange))} of ${escapeHtml(signed(explanation.change))} per
request${beyond ? '' : '; the whole change is within the noise'}.</p>
<h3>Difference flame graph</h3>
${flameFigure(explanation, explanation.tree)}
${functionTables(explanation)}
</section>`
}

/** @param {Explanation} explanation @returns {string} the change, its size against the noise, in one line */
function answerLine ({ baseline, candidate, change, changePercent, noise }) {
  const within = Math.abs(change) < noise.perRequest
  const colour = shadeOf(change, noise.perRequest, Math.abs(change))
  return `<p class="answer"><span class="change" style="background: ${colour}">` +
    `${escapeHtml(`${signed(change)} (${percentText(changePercent)})`)}</span> instructions per request: ` +
    `${formatInteger(baseline.instructionsPerRequest)} → ${formatInteger(candidate.instructionsPerRequest)}, ` +
    `${within ? 'within' : 'beyond'} the noise of ±${formatInteger(noise.perRequest)} ` +
    `(${escapeHtml(noise.percent)}%, the A/A threshold a verdict on this cell uses).</p>`
}

/** @param {Explanation} explanation @returns {string[]} the layer table's change cells' colours, row by row */
function layerColours ({ layers, noise }) {
  const shown = shownLayers(layers)
  const largestPerRequest = Math.max(0, ...shown.map((layer) => Math.abs(layer.change)))
  return shown.map((layer) => shadeOf(layer.change, noise.perRequest, largestPerRequest, layer.withinNoise))
}

/** @param {Explanation} explanation @returns {string} */
function functionTables (explanation) {
  const { noise } = explanation
  const tables = functionSections(explanation).filter(({ entries }) => entries.length > 0).map(({ title, entries, by }) => {
    const changes = entries.map((entry) => by === 'own' ? entry.selfChange : entry.chargedChange)
    const largestPerRequest = Math.max(...changes.map(Math.abs))
    const colours = changes.map((change) => shadeOf(change, noise.perRequest, largestPerRequest))
    return `<h3>${escapeHtml(title)}</h3>\n${gridTable(functionGrid(entries, by), { column: 0, colours })}`
  })
  if (tables.length === 0) {
    return `<p>No function's instructions changed by more than the noise (±${formatInteger(noise.perRequest)} per request).</p>`
  }
  return tables.join('\n')
}

/**
 * @param {Grid} grid @param {{ column: number, colours: string[] }} shading the change column's colour in each row
 * @returns {string}
 */
function gridTable ({ head, rows, alignRight }, { column, colours }) {
  const cell = (/** @type {string} */ text, /** @type {number} */ at, /** @type {number} */ row) => {
    const figure = alignRight.includes(at) ? ' class="figure"' : ''
    const shade = at === column ? ` style="background: ${colours[row] ?? NOISE_GREY}"` : ''
    return `<td${figure}${shade}>${escapeHtml(text)}</td>`
  }
  return `<table class="explain"><thead><tr>${head.map((text) => `<th>${escapeHtml(text)}</th>`).join('')}</tr></thead><tbody>\n` +
    rows.map((cells, row) => `<tr>${cells.map((text, at) => cell(text, at, row)).join('')}</tr>`).join('\n') + '\n</tbody></table>'
}

/** @param {Explanation} explanation @param {ChangeNode} tree @returns {string} the flame graph with its legend and how to read it */
function flameFigure ({ layers, noise }, tree) {
  const layerWithin = new Map(layers.map((layer) => [layer.layer, layer.withinNoise]))
  /** @type {import('./icicle-svg.js').IcicleSettings} */
  const settings = {
    widthPx: FLAME_WIDTH_PX,
    noisePerRequest: noise.perRequest,
    largestPerRequest: largestChange(tree),
    withinNoise: (node) => node.kind === 'layer'
      ? layerWithin.get(/** @type {import('./explain-change.js').LayerName} */ (node.name)) ?? false
      : Math.abs(node.candidatePerRequest - node.baselinePerRequest) < noise.perRequest
  }
  const swatch = (/** @type {string} */ colour, /** @type {string} */ text) =>
    `<span class="swatch" style="background: ${colour}"></span>${escapeHtml(text)}`
  return `<figure class="flame">
${icicleSvg(tree, settings)}
<figcaption><p class="legend">${swatch(shadeOf(1, 0, 1), 'more instructions in the candidate')}${swatch(shadeOf(-1, 0, 1), 'fewer')}` +
    `${swatch(NOISE_GREY, `within the noise (±${formatInteger(noise.perRequest)} per request)`)}</p>
<p class="note">Each row splits the one above it: every instruction per request, then the layers, their packages (no package: the
layer's own code), their functions, each with the native code it ran charged to it. A function's box is as wide as the larger of its
baseline and candidate, so that a function gone from the candidate still shows; a layer or a package spans its functions, and
"other functions" stands for those the counts did not keep. The deeper the colour, the larger the change; a layer is judged by its
own band, as in the table. Hover over a box for its file, package and both counts.</p></figcaption>
</figure>
${layerFigures(tree, settings)}`
}

/**
 * The layers beyond the noise again, each across the page, so that their packages and functions have room for their names.
 * @param {ChangeNode} tree @param {import('./icicle-svg.js').IcicleSettings} settings
 * @returns {string}
 */
function layerFigures (tree, settings) {
  const beyond = tree.children.filter((layer) => !settings.withinNoise(layer))
  if (beyond.length === 0) return ''
  const captionOf = (/** @type {ChangeNode} */ layer) =>
    `${LAYER_LABELS.get(layer.name) ?? layer.name}: ${signed(layer.candidatePerRequest - layer.baselinePerRequest)}`
  return '<h3>The layers beyond the noise, each across the page</h3>\n' + beyond.map((layer) => `<figure class="flame layer">
<figcaption>${escapeHtml(captionOf(layer))}</figcaption>
${icicleSvg(layer, settings)}
</figure>`).join('\n')
}
