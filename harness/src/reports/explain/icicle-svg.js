// @ts-check
// A difference flame graph of a change tree (change-tree.js), drawn as inline SVG so that the page needs no script: an icicle, the
// whole on top, then the layers, their packages, their functions. A function's box is as wide as the larger of its two sides, so a
// function gone from the candidate still shows; a group spans its members. Each box is coloured by its change (change-colour.js)
// and has a tooltip; a box too narrow for a label has none, one narrower than a fraction of a pixel is not drawn.
import { LAYER_LABELS } from '../../measures/instructions/counts/code-layers.js'
import { escapeHtml } from '../../platform/text/html-text.js'
import { formatInteger } from '../../platform/text/format.js'
import { changeColour } from './change-colour.js'
import { largerSide, NO_PACKAGE } from './change-tree.js'
import { percentText, shownName, signed } from './explain-text.js'

/**
 * @typedef {import('./change-tree.js').ChangeNode} ChangeNode
 * @typedef {{ node: ChangeNode, depth: number, xPx: number, widthPx: number }} PlacedBox
 * @typedef {object} IcicleSettings
 * @property {number} widthPx the drawing's width (it scales to the page's)
 * @property {number} noisePerRequest the cell's noise band
 * @property {(node: ChangeNode) => boolean} withinNoise whether a node's change is within its noise
 * @property {number} largestPerRequest the change drawn in the strongest colour (largestChange: one scale for a graph and its parts)
 */

const ROW_PX = 24
const FONT_PX = 11
/** A generous width of one character at FONT_PX, so that a label never runs past its box. */
const CHAR_PX = 6.6
const LABEL_PAD_PX = 4
const SHORTEST_LABEL_CHARS = 3
const NARROWEST_DRAWN_PX = 0.3

/** @param {ChangeNode} node @returns {number} */
const changeOf = (node) => Math.round((node.candidatePerRequest - node.baselinePerRequest) * 10) / 10

/**
 * @param {ChangeNode} tree @param {IcicleSettings} settings
 * @returns {string} the svg element
 */
export function icicleSvg (tree, settings) {
  const boxes = placeBoxes(tree, settings.widthPx)
  const { largestPerRequest } = settings
  const heightPx = (Math.max(0, ...boxes.map((box) => box.depth)) + 1) * ROW_PX
  const colourOf = (/** @type {ChangeNode} */ node) =>
    changeColour(changeOf(node), { withinNoise: settings.withinNoise(node), noisePerRequest: settings.noisePerRequest, largestPerRequest })
  return `<svg class="icicle" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${settings.widthPx} ${heightPx}" ` +
    'role="img" aria-label="difference flame graph">\n' +
    boxes.map((box) => boxSvg(box, colourOf(box.node), settings)).join('\n') + '\n</svg>'
}

/** @param {ChangeNode} tree @returns {number} the largest change of a node below the whole */
export const largestChange = (tree) =>
  Math.max(0, ...tree.children.map((child) => Math.max(Math.abs(changeOf(child)), largestChange(child))))

/**
 * Each box's place: a leaf as wide as its larger side, a group the sum of its members.
 * @param {ChangeNode} tree @param {number} widthPx
 * @returns {PlacedBox[]}
 */
function placeBoxes (tree, widthPx) {
  /** @type {Map<ChangeNode, number>} */
  const spans = new Map()
  const spanOf = (/** @type {ChangeNode} */ node) => {
    let span = spans.get(node)
    if (span === undefined) {
      span = node.children.length === 0 ? largerSide(node) : node.children.reduce((sum, child) => sum + spanOf(child), 0)
      spans.set(node, span)
    }
    return span
  }
  const pxPerInstruction = spanOf(tree) > 0 ? widthPx / spanOf(tree) : 0
  /** @type {PlacedBox[]} */
  const boxes = []
  const visit = (/** @type {ChangeNode} */ node, /** @type {number} */ depth, /** @type {number} */ xPx) => {
    const boxPx = spanOf(node) * pxPerInstruction
    if (boxPx < NARROWEST_DRAWN_PX) return
    boxes.push({ node, depth, xPx, widthPx: boxPx })
    let at = xPx
    for (const child of node.children) {
      visit(child, depth + 1, at)
      at += spanOf(child) * pxPerInstruction
    }
  }
  visit(tree, 0, 0)
  return boxes
}

/** @param {number} value @returns {string} a coordinate, short */
const px = (value) => String(Math.round(value * 100) / 100)

/**
 * @param {PlacedBox} box @param {string} colour @param {IcicleSettings} settings
 * @returns {string}
 */
function boxSvg ({ node, depth, xPx, widthPx }, colour, settings) {
  const label = labelOf(node, widthPx)
  const text = label === null
    ? ''
    : `<text x="${px(xPx + LABEL_PAD_PX)}" y="${px(depth * ROW_PX + ROW_PX / 2 + FONT_PX * 0.36)}">${escapeHtml(label)}</text>`
  return `<g class="box ${node.kind}"><title>${escapeHtml(tooltipOf(node, settings))}</title>` +
    `<rect x="${px(xPx)}" y="${depth * ROW_PX}" width="${px(Math.max(widthPx - 1, NARROWEST_DRAWN_PX))}" height="${ROW_PX - 1}" ` +
    `fill="${colour}"/>${text}</g>`
}

/** @param {ChangeNode} node @returns {string} */
const shortName = (node) => node.kind === 'function' ? shownName(node.name) : node.name

/**
 * @param {ChangeNode} node @param {number} widthPx
 * @returns {string | null} the name and its change where both fit, else the name cut to fit, else none
 */
function labelOf (node, widthPx) {
  const fits = Math.floor((widthPx - 2 * LABEL_PAD_PX) / CHAR_PX)
  if (fits < SHORTEST_LABEL_CHARS) return null
  const name = shortName(node)
  const whole = `${name} ${signed(changeOf(node))}`
  if (whole.length <= fits) return whole
  return name.length <= fits ? name : `${name.slice(0, fits - 1)}…`
}

/** @param {ChangeNode} node @param {IcicleSettings} settings @returns {string} a layer is judged by its own band, which may be wider */
const noiseNote = (node, settings) => !settings.withinNoise(node)
  ? ''
  : node.kind === 'layer' ? ', within the noise' : `, within the noise (±${formatInteger(settings.noisePerRequest)})`

/**
 * @param {ChangeNode} node @param {IcicleSettings} settings
 * @returns {string} what a box stands for, line by line: its name, where it is, both sides and the change
 */
function tooltipOf (node, settings) {
  const { fn } = node
  const layer = node.layer === null ? 'every layer' : LAYER_LABELS.get(node.layer) ?? node.layer
  const place = fn === null
    ? [node.kind === 'package' ? `${node.name === NO_PACKAGE ? 'the layer\'s own code' : 'a package'} in ${layer}` : layer]
    : [fn.file === null ? null : `${fn.file}${fn.line === null ? '' : `:${fn.line}`}`, `${fn.package ?? NO_PACKAGE}, ${layer}`]
  const from = node.baselinePerRequest
  const relative = from > 0 ? percentText(Math.round(changeOf(node) / from * 1000) / 10) : node.candidatePerRequest > 0 ? 'new' : '-'
  return [
    node.kind === 'other' ? `${node.name}: those the counts did not keep` : node.name,
    ...place.filter((line) => line !== null),
    `${formatInteger(Math.round(from))} → ${formatInteger(Math.round(node.candidatePerRequest))} instructions per request (charged)`,
    `${signed(changeOf(node))} (${node.candidatePerRequest === 0 && from > 0 ? 'gone' : relative})${noiseNote(node, settings)}`
  ].join('\n')
}
