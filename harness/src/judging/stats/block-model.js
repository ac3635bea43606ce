// @ts-check
// The spread left once the machine's speed in each block is taken out: figures of several cells measured in the same blocks (every SUT of
// a scenario back to back, docs/measuring.md "Rounds as blocks"), fitted by an additive model of ln figure = cell + block + error.
import { mean } from 'simple-statistics'

/**
 * The additive model ln y = cell + block fitted by alternating means (the blocks may be incomplete), and its residual variance.
 * @param {Map<string, number>[]} logs per cell, its ln figure by block
 * @returns {{ variance: number, df: number } | null} null: no pair of cells shares two blocks, or no degree of freedom is left
 */
export function blockModel (logs) {
  const blockNames = [...new Set(logs.flatMap((cell) => [...cell.keys()]))]
  const shared = logs.some((cell, a) => logs.slice(a + 1).some((other) => [...cell.keys()].filter((block) => other.has(block)).length >= 2))
  const observations = logs.reduce((sum, cell) => sum + cell.size, 0)
  const df = observations - logs.length - blockNames.length + 1
  if (!shared || df < 1) return null
  const cellEffect = logs.map((cell) => mean([...cell.values()]))
  /** @type {Map<string, number>} */
  const blockEffect = new Map(blockNames.map((block) => [block, 0]))
  for (let sweep = 0; sweep < 200; sweep++) {
    let moved = 0
    for (const block of blockNames) {
      const residuals = logs.flatMap((cell, at) => cell.has(block) ? [(cell.get(block) ?? 0) - cellEffect[at]] : [])
      const next = mean(residuals)
      moved = Math.max(moved, Math.abs(next - /** @type {number} */ (blockEffect.get(block))))
      blockEffect.set(block, next)
    }
    for (const [at, cell] of logs.entries()) {
      const next = mean([...cell].map(([block, log]) => log - /** @type {number} */ (blockEffect.get(block))))
      moved = Math.max(moved, Math.abs(next - cellEffect[at]))
      cellEffect[at] = next
    }
    if (moved < 1e-12) break
  }
  const squares = logs.reduce((sum, cell, at) => sum + [...cell].reduce((inner, [block, log]) =>
    inner + (log - cellEffect[at] - /** @type {number} */ (blockEffect.get(block))) ** 2, 0), 0)
  return { variance: squares / df, df }
}
