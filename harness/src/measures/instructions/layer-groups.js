// @ts-check
// A count's layers (counts/code-layers.js) in the groups a reader asks about: how much of a request is Node's HTTP server, how much the
// framework (its own package, its dependencies and the SUT's routes on it), how much the route's work, and what V8's collector and
// compilers add. Each group's share is of the charged instructions, which add up to the count.

/**
 * @typedef {import('./counts/code-layers.js').LayerName} LayerName
 * @typedef {{ name: string, label: string, layers: readonly LayerName[] }} LayerGroup
 * @typedef {{ group: LayerGroup, perRequest: number, share: number }} GroupShare
 */

/** @type {readonly LayerGroup[]} */
export const LAYER_GROUPS = Object.freeze([
  { name: 'server', label: 'Node\'s HTTP server (its JavaScript and the native runtime)', layers: ['node', 'runtime'] },
  { name: 'framework', label: 'the framework, its dependencies and the SUT\'s routes', layers: ['framework', 'dependencies', 'app'] },
  { name: 'work', label: 'the route\'s work', layers: ['route-work'] },
  { name: 'collector', label: 'V8\'s collector', layers: ['collector'] },
  { name: 'compiler', label: 'V8\'s compilers', layers: ['compiler'] }
])

/**
 * @param {import('../../records/result-record.js').ResultRecord} record
 * @returns {GroupShare[] | null} null: the count has no layers (not Node, or a count of a dyno from before)
 */
export function layerShares (record) {
  const layers = record.instructions?.functions?.layers
  if (!layers) return null
  const total = Object.values(layers).reduce((sum, value) => sum + (value ?? 0), 0)
  if (total <= 0) return null
  return LAYER_GROUPS.map((group) => {
    const perRequest = group.layers.reduce((sum, layer) => sum + (layers[layer] ?? 0), 0)
    return { group, perRequest, share: perRequest / total }
  })
}
