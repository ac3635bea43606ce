// @ts-check
// The change tree of `dyno explain --format html` (change-tree.js): layer → package → function, each node's baseline and candidate the
// sums of its children's, down to the functions the counts kept and each layer's "other functions"; the whole is the layers'. A
// function on one side only is there with 0 on the other; keys and packages from the counts are data, never an object's properties.
import { describe, expect, it } from 'vitest'
import { changeTree, NO_PACKAGE, OTHER_FUNCTIONS } from '../../src/reports/explain/change-tree.js'
import { BASELINE, CANDIDATE, HOSTILE_PACKAGE, totalOf } from '../support/two-function-profiles.js'

/** @typedef {import('../../src/reports/explain/change-tree.js').ChangeNode} ChangeNode */

/** @param {ChangeNode} node @returns {ChangeNode[]} the node and every node below it */
const everyNode = (node) => [node, ...node.children.flatMap(everyNode)]

/** @param {ChangeNode} tree @param {string} path names from the whole down, `/` between */
function nodeAt (tree, path) {
  let node = tree
  for (const name of path.split('/')) {
    const matches = node.children.filter((child) => child.name === name)
    expect(matches, `${path}: ${name}`).toHaveLength(1)
    node = matches[0]
  }
  return node
}

describe('the change tree', () => {
  const tree = changeTree(BASELINE, CANDIDATE)

  it('adds up at every level, to the layers and the whole', () => {
    for (const node of everyNode(tree).filter((each) => each.children.length > 0)) {
      expect(node.children.reduce((sum, child) => sum + child.baselinePerRequest, 0)).toBeCloseTo(node.baselinePerRequest, 6)
      expect(node.children.reduce((sum, child) => sum + child.candidatePerRequest, 0)).toBeCloseTo(node.candidatePerRequest, 6)
    }
    expect(tree).toMatchObject({ kind: 'whole', baselinePerRequest: totalOf(BASELINE), candidatePerRequest: totalOf(CANDIDATE) })
    // The layers that cost anything, the largest first, each its count's total; the collector cost nothing on either side.
    expect(tree.children.map((layer) => [layer.name, layer.baselinePerRequest, layer.candidatePerRequest])).toEqual([
      ['node', 20_000, 20_000], ['framework', 12_000, 13_550], ['runtime', 7_700, 7_700], ['dependencies', 2_000, 1_800], ['app', 300, 300]
    ])
  })

  it('holds what the kept functions leave of a layer as its other functions, and none where they cover it', () => {
    expect(nodeAt(tree, `framework/${OTHER_FUNCTIONS}`))
      .toMatchObject({ kind: 'other', baselinePerRequest: 3_000, candidatePerRequest: 3_000 })
    expect(nodeAt(tree, 'framework').children.at(-1)?.kind).toBe('other')
    expect(nodeAt(tree, 'app').children.map((child) => child.name)).toEqual([NO_PACKAGE])
  })

  it('matches a function by its key and gives one on one side only 0 on the other', () => {
    expect(nodeAt(tree, 'framework/express/send'))
      .toMatchObject({ kind: 'function', baselinePerRequest: 3_000, candidatePerRequest: 4_000 })
    expect(nodeAt(tree, 'dependencies/fresh/fresh')).toMatchObject({ baselinePerRequest: 800, candidatePerRequest: 0 })
    expect(nodeAt(tree, 'dependencies/etag/etag')).toMatchObject({ baselinePerRequest: 0, candidatePerRequest: 600 })
    expect(nodeAt(tree, 'dependencies/fresh/fresh').fn?.file).toBe('fresh/index.js')
  })

  it('keeps names like an object\'s own properties and like markup as data', () => {
    expect(nodeAt(tree, `runtime/${NO_PACKAGE}/__proto__`)).toMatchObject({ baselinePerRequest: 4_000, candidatePerRequest: 4_000 })
    expect(nodeAt(tree, `dependencies/${HOSTILE_PACKAGE}/parse`)).toMatchObject({ baselinePerRequest: 200, candidatePerRequest: 200 })
    expect(Object.getPrototypeOf(nodeAt(tree, 'runtime'))).toBe(Object.prototype)
  })
})
