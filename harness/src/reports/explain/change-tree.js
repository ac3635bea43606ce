// @ts-check
// A change as a tree, for a difference flame graph: the whole, its layers, each layer's packages (none: the layer's own code), their
// functions, each node with its charged instructions per request on both sides (function-costs.js: the charged add up to the
// layers'). A count keeps its costliest functions only, so what the kept ones leave of a layer is its "other functions" node, and
// every node is the sum of its children. Functions are matched by key within their layer and package: a function another SUT's
// count puts in another layer is two nodes, each with 0 on one side, so that each layer still adds up.
import { CODE_LAYERS } from '../../measures/instructions/counts/code-layers.js'

/**
 * @typedef {import('../../measures/instructions/counts/function-profile.js').FunctionProfile} FunctionProfile
 * @typedef {import('../../measures/instructions/counts/function-profile.js').CountedFunction} CountedFunction
 *
 * @typedef {object} ChangeNode
 * @property {'whole' | 'layer' | 'package' | 'function' | 'other'} kind
 * @property {string} name the layer's name, the package's, the function's; 'no package' and 'other functions' for those
 * @property {string | null} layer the layer it is in (null: the whole)
 * @property {CountedFunction | null} fn a function's, as the candidate has it (the baseline's where it is gone)
 * @property {number} baselinePerRequest charged instructions per request
 * @property {number} candidatePerRequest
 * @property {ChangeNode[]} children the largest (of either side) first, a layer's other functions last
 *
 * @typedef {{ fn: CountedFunction, baselinePerRequest: number, candidatePerRequest: number }} Matched
 * @typedef {Map<string | null, Map<string, Matched>>} LayerFunctions by package (null: none), then by the function's key
 */

export const NO_PACKAGE = 'no package'
export const OTHER_FUNCTIONS = 'other functions'

/** @param {number} value */
const tenths = (value) => Math.round(value * 10) / 10

/**
 * @param {FunctionProfile} baseline @param {FunctionProfile} candidate
 * @returns {ChangeNode} the whole, its children the layers that cost anything on either side
 */
export function changeTree (baseline, candidate) {
  /** @type {Map<string, LayerFunctions>} */
  const byLayer = new Map()
  addSide(byLayer, baseline.functions, 'baselinePerRequest')
  addSide(byLayer, candidate.functions, 'candidatePerRequest')
  const layers = CODE_LAYERS.map(({ name }) => layerNode(name, byLayer.get(name) ?? new Map(), {
    baselinePerRequest: baseline.layers[name] ?? 0,
    candidatePerRequest: candidate.layers[name] ?? 0
  })).filter((node) => node.baselinePerRequest > 0 || node.candidatePerRequest > 0)
  return sumOf('whole', 'all', null, layers)
}

/**
 * @param {Map<string, LayerFunctions>} byLayer @param {CountedFunction[]} functions
 * @param {'baselinePerRequest' | 'candidatePerRequest'} side
 */
function addSide (byLayer, functions, side) {
  for (const fn of functions) {
    const packages = byLayer.get(fn.layer) ?? new Map()
    byLayer.set(fn.layer, packages)
    const matched = packages.get(fn.package) ?? new Map()
    packages.set(fn.package, matched)
    const held = matched.get(fn.key)
    if (held) {
      held[side] += fn.chargedPerRequest
      // The candidate's name and place are the ones shown.
      if (side === 'candidatePerRequest') held.fn = fn
    } else matched.set(fn.key, { fn, baselinePerRequest: 0, candidatePerRequest: 0, [side]: fn.chargedPerRequest })
  }
}

/**
 * @param {string} name @param {LayerFunctions} packages
 * @param {{ baselinePerRequest: number, candidatePerRequest: number }} total the layer's, from the count's layers
 * @returns {ChangeNode}
 */
function layerNode (name, packages, total) {
  const children = [...packages].map(([pkg, matched]) => sumOf('package', pkg ?? NO_PACKAGE, name, [...matched.values()].map(functionNode)))
  const kept = sumOf('layer', name, name, children)
  // Rounding to tenths can leave the kept functions a hair above the layer's total: no negative remainder.
  const other = {
    kind: /** @type {const} */ ('other'),
    name: OTHER_FUNCTIONS,
    layer: name,
    fn: null,
    baselinePerRequest: tenths(Math.max(0, total.baselinePerRequest - kept.baselinePerRequest)),
    candidatePerRequest: tenths(Math.max(0, total.candidatePerRequest - kept.candidatePerRequest)),
    children: []
  }
  return other.baselinePerRequest > 0 || other.candidatePerRequest > 0 ? sumOf('layer', name, name, [...kept.children, other]) : kept
}

/** @param {Matched} matched @returns {ChangeNode} */
const functionNode = ({ fn, baselinePerRequest, candidatePerRequest }) => ({
  kind: 'function',
  name: fn.name,
  layer: fn.layer,
  fn,
  baselinePerRequest: tenths(baselinePerRequest),
  candidatePerRequest: tenths(candidatePerRequest),
  children: []
})

/** @param {ChangeNode} node the larger of its two sides */
export const largerSide = (node) => Math.max(node.baselinePerRequest, node.candidatePerRequest)

/**
 * @param {ChangeNode['kind']} kind @param {string} name @param {string | null} layer @param {ChangeNode[]} children
 * @returns {ChangeNode} a node that is the sum of its children, the largest first (a layer's other functions last)
 */
function sumOf (kind, name, layer, children) {
  const sorted = [...children].sort((a, b) => Number(a.kind === 'other') - Number(b.kind === 'other') || largerSide(b) - largerSide(a))
  return {
    kind,
    name,
    layer,
    fn: null,
    baselinePerRequest: tenths(sorted.reduce((sum, child) => sum + child.baselinePerRequest, 0)),
    candidatePerRequest: tenths(sorted.reduce((sum, child) => sum + child.candidatePerRequest, 0)),
    children: sorted
  }
}
