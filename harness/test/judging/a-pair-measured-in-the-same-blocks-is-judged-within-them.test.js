// @ts-check
import { describe, expect, it } from 'vitest'
import { rankGroups } from '../../src/judging/stats/rank-groups.js'
import { seededRandom } from '../../src/judging/stats/seeded-random.js'
import { aggregateRuns } from '../../src/records/aggregate-runs.js'
import { createLatencyHistogram, encodeHistogram } from '../../src/load/latency-histogram.js'

/** A standard normal draw (Box–Muller) from a seeded source. @param {() => number} random */
const normal = (random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())

/**
 * Rounds of four SUTs 10 % apart, each round a block in which the machine ran at a speed of its own (sd 0.5 of ln req/s, as this
 * machine's hypervisor moves it), and within it each SUT spread by sd 0.03.
 * @param {number} seed @param {number} rounds
 */
function blockedRounds (seed, rounds) {
  const random = seededRandom(seed)
  const levels = [10_000, 11_000, 12_100, 13_310]
  const cells = levels.map(() => /** @type {number[]} */ ([]))
  const blocks = levels.map(() => /** @type {string[]} */ ([]))
  for (let round = 1; round <= rounds; round++) {
    const speed = Math.exp(0.5 * normal(random))
    levels.forEach((level, at) => {
      cells[at].push(level * speed * Math.exp(0.03 * normal(random)))
      blocks[at].push(`${round}.0`)
    })
  }
  return { cells, blocks }
}

describe('a pair measured in the same blocks is judged within them', () => {
  it('separates SUTs 10 % apart that a drift of the machine between blocks hides from a test on the cells alone', () => {
    const { cells, blocks } = blockedRounds(7, 6)
    const apart = rankGroups(cells)
    const within = rankGroups(cells, blocks)
    expect(apart.pairs.filter((pair) => pair.separated)).toHaveLength(0)
    expect(within.pairs.every((pair) => pair.separated)).toBe(true)
    expect(within.cells.map((cell) => cell.rank)).toEqual([4, 3, 2, 1].map((place) => ({ best: place, worst: place, of: 4 })))
    // The spread within a block is the SUTs' own; the spread without the blocks holds the machine's drift.
    expect(within.noise?.pooledSdLog).toBeGreaterThan(0.015)
    expect(within.noise?.pooledSdLog).toBeLessThan(0.06)
    expect(within.noise?.sdLogWithoutBlocks).toBeGreaterThan(0.25)
    expect(within.noise?.df).toBe(6 * 4 - 4 - 6 + 1)
    // A cell's center and its interval are the level it ran at, drift included, blocks or not.
    expect(within.cells.map((cell) => cell.interval95)).toEqual(apart.cells.map((cell) => cell.interval95))
  })

  it('does not separate SUTs that differ by nothing, however much the blocks moved', () => {
    const random = seededRandom(11)
    const cells = [[], [], []].map(() => /** @type {number[]} */ ([]))
    const blocks = cells.map(() => /** @type {string[]} */ ([]))
    for (let round = 1; round <= 8; round++) {
      const speed = Math.exp(0.5 * normal(random))
      cells.forEach((rates, at) => { rates.push(20_000 * speed * Math.exp(0.05 * normal(random))); blocks[at].push(`${round}.0`) })
    }
    expect(rankGroups(cells, blocks).pairs.some((pair) => pair.separated)).toBe(false)
  })

  it('judges cells apart where they share no two blocks, or a cell has two rounds in one block', () => {
    const { cells } = blockedRounds(3, 4)
    const unshared = cells.map((rates, at) => rates.map((_, round) => `${at}-${round}`))
    expect(rankGroups(cells, unshared)).toEqual(rankGroups(cells))
    const doubled = cells.map((rates) => rates.map(() => 'one'))
    expect(rankGroups(cells, doubled)).toEqual(rankGroups(cells))
  })

  it('pairs a run with the runs of its round, and a block measured again with the others measured again with it', () => {
    const latency = createLatencyHistogram()
    latency.recordValue(1000)
    const histogram = encodeHistogram(latency)
    const { cells } = blockedRounds(5, 6)
    const suts = ['a', 'b', 'c', 'd']
    /** @type {any[]} */
    const records = cells.flatMap((rates, at) => rates.map((rate, round) => ({
      sut: { label: suts[at] },
      scenario: { name: 'json' },
      load: { connections: 100 },
      repeat: { index: round + 1, of: rates.length },
      status: 'ok',
      interference: { disturbed: false, earlierAttempts: round === 2 ? [{}] : [] },
      summary: { requestsPerSec: { mean: rate }, latencyHistogramUs: histogram }
    })))
    const aggregates = aggregateRuns(records, { seed: 1 })
    expect(aggregates.map((aggregate) => aggregate.rank)).toEqual([4, 3, 2, 1].map((place) => ({ best: place, worst: place, of: 4 })))
    expect(aggregates[0].noise?.sdLogWithoutBlocks).toBeGreaterThan(0.25)
    expect(aggregates[0]).not.toHaveProperty('runBlocks')
  })
})
