// @ts-check
// An anonymous function is keyed by its line, so a release that moved one within its script (express's getter went from request.js:456
// to :469 between 5.2.1 and 5.3.0) must still be explained as one function that changed, not as one gone and one new: paired between
// the named functions both counts kept, in order, where that leaves no doubt. Where it does (more gone than new between two anchors,
// anchors out of order, one too cheap for the other side's list), they stay apart.
import { describe, expect, it } from 'vitest'
import { explainChange } from '../../src/reports/explain/explain-change.js'
import { explanationText } from '../../src/reports/explain/explain-text.js'

/**
 * @typedef {import('../../src/measures/instructions/counts/function-profile.js').FunctionProfile} FunctionProfile
 * @typedef {import('../../src/measures/instructions/counts/function-profile.js').CountedFunction} CountedFunction
 */

const FILE = 'express/lib/request.js'

/** @param {string} name @param {number} line @param {number} selfPerRequest @returns {CountedFunction} */
const fn = (name, line, selfPerRequest) => ({
  key: name ? `${name} ${FILE}` : `(anonymous) ${FILE}:${line}`,
  name: name || '(anonymous)',
  file: FILE,
  line,
  package: 'express',
  layer: 'framework',
  selfPerRequest,
  chargedPerRequest: selfPerRequest
})

/** @param {CountedFunction[]} functions @returns {import('../../src/reports/explain/explain-change.js').ExplainedCount} */
function countOf (functions) {
  const framework = functions.reduce((sum, each) => sum + each.chargedPerRequest, 0)
  const layers = { framework, node: 100_000 - framework }
  const total = 100_000
  /** @type {FunctionProfile} */
  const profile = {
    layers, functions, keptAbovePerRequest: 100, omitted: { functions: 0, selfPerRequest: 0 }, generatedCodeNamed: true
  }
  return {
    label: 'express × json',
    file: 'count.json',
    instructionsPerRequest: total,
    programPerWindow: Array.from({ length: 8 }, () => total),
    windowLayers: Array.from({ length: 8 }, () => layers),
    profile
  }
}

/** @param {CountedFunction[]} before @param {CountedFunction[]} after */
const explained = (before, after) => explainChange(countOf(before), countOf(after), { top: 10 })

// The noise here is the threshold's floor, 0.5 % of 100,000: 500 per request.
describe('an anonymous function that moved within its script', () => {
  it('is one function that changed, named at its new line with the old one beside it', () => {
    const explanation = explained(
      [fn('acceptsLanguages', 200, 1_000), fn('', 100, 2_000), fn('', 456, 9_455), fn('protocol', 600, 1_000)],
      [fn('acceptsLanguages', 213, 1_000), fn('', 100, 2_000), fn('', 469, 10_455), fn('protocol', 613, 1_000)])
    expect(explanation.appeared).toEqual([])
    expect(explanation.vanished).toEqual([])
    expect(explanation.functions).toHaveLength(1)
    expect(explanation.functions[0]).toMatchObject({ selfChange: 1_000, movedFromLine: 456, fn: { line: 469 } })
    expect(explanationText(explanation, { markdown: true })).toContain(`| ${FILE}:469, was :456 |`)
    // The flame graph holds it once, with both sides.
    const framework = explanation.tree.children.find((layer) => layer.name === 'framework')
    const boxes = framework?.children.flatMap((pkg) => pkg.children).filter((node) => node.fn?.name === '(anonymous)')
    expect(boxes?.map((node) => [node.fn?.line, node.baselinePerRequest, node.candidatePerRequest])).toEqual([
      [469, 9_455, 10_455], [100, 2_000, 2_000]
    ])
  })

  it('within the noise, is not listed at all', () => {
    const explanation = explained([fn('accepts', 20, 1_000), fn('', 456, 9_455)], [fn('accepts', 20, 1_000), fn('', 469, 9_429)])
    expect([explanation.functions, explanation.appeared, explanation.vanished, explanation.charged]).toEqual([[], [], [], []])
  })

  it('several in one gap are paired in order', () => {
    const explanation = explained(
      [fn('a', 10, 1_000), fn('', 30, 5_000), fn('', 40, 7_000), fn('b', 90, 1_000)],
      [fn('a', 10, 1_000), fn('', 33, 5_000), fn('', 45, 8_000), fn('b', 95, 1_000)])
    expect(explanation.functions.map((entry) => [entry.movedFromLine, entry.fn.line, entry.selfChange])).toEqual([[40, 45, 1_000]])
    expect([explanation.appeared, explanation.vanished]).toEqual([[], []])
  })

  it.each([
    ['more are gone than came between the same anchors',
      [fn('a', 10, 1_000), fn('', 30, 5_000), fn('', 40, 7_000)], [fn('a', 10, 1_000), fn('', 45, 8_000)]],
    ['the anchors are in another order',
      [fn('a', 10, 1_000), fn('b', 20, 1_000), fn('', 30, 5_000)], [fn('b', 10, 1_000), fn('a', 20, 1_000), fn('', 33, 9_000)]],
    ['they lie between different anchors',
      [fn('a', 10, 1_000), fn('', 30, 5_000), fn('b', 50, 1_000)], [fn('a', 10, 1_000), fn('b', 50, 1_000), fn('', 60, 9_000)]],
    // 90 a request is below the 100 the other side's list keeps: the function there may be one it left out.
    ['one is too cheap to be in the other side\'s list', [fn('a', 10, 1_000), fn('', 30, 90)], [fn('a', 10, 1_000), fn('', 33, 9_000)]]
  ])('stays apart where %s', (_, before, after) => {
    const explanation = explained(before, after)
    expect(explanation.functions.filter((entry) => entry.movedFromLine !== null)).toEqual([])
    expect(explanation.appeared.map((entry) => entry.fn.key)).toContain(`(anonymous) ${FILE}:${after.at(-1)?.line}`)
  })
})
