// @ts-check
// The search for a capacity: the lowest step first, a coarse sweep up to the top, then bisection between the last step held and the first
// one not held. Driven here by a SUT model whose limit is known (a step is held below it), so each path of the search is seen whole: the
// rates it offered in order, the capacity it found and what it says stopped it.
import { describe, expect, it } from 'vitest'
import { RESOLUTION, searchCapacity } from '../../../src/measures/capacity/rate-search.js'

/**
 * A SUT that holds every rate up to `limit`; `generatorFrom`: from this rate on, the generator cannot keep its schedule;
 * `generatorLateOnce`: the generator falls behind the first time each of these rates is offered, and keeps its schedule after.
 * @param {{ limit: number, generatorFrom?: number, interruptAt?: number, generatorLateOnce?: number[] }} model
 */
function modelSut ({ limit, generatorFrom = Infinity, interruptAt = Infinity, generatorLateOnce = [] }) {
  /** @type {number[]} */
  const offered = []
  const measureStep = async (/** @type {number} */ rate) => {
    const lateOnce = generatorLateOnce.includes(rate) && !offered.includes(rate)
    offered.push(rate)
    const generatorBehind = rate >= generatorFrom || lateOnce
    const cutShort = rate >= interruptAt
    const held = !generatorBehind && !cutShort && rate <= limit
    const reason = held ? null : generatorBehind ? 'the generator lagged' : `p99 12 ms > 10 ms at ${rate}`
    const measureAgain = !held && !cutShort && generatorBehind ? 'the generator fell behind its schedule' : null
    return { held, generatorBehind, cutShort, reason, measureAgain }
  }
  return { offered, measureStep }
}

/**
 * The search over a model SUT, from 100 req/s to a top of 10,000 (the closed-loop ceiling) unless told otherwise.
 * @param {ReturnType<typeof modelSut>} sut
 * @param {{ minRatePerSec?: number, topPerSec?: number, topIs?: string, beyondTop?: boolean }} [overrides]
 */
const search = (sut, overrides = {}) => searchCapacity({
  minRatePerSec: 100, topPerSec: 10_000, topIs: 'the closed-loop ceiling', beyondTop: true, measureStep: sut.measureStep, ...overrides
})

describe('the capacity search', () => {
  it('sweeps up to the first step not held, then bisects to within its resolution', async () => {
    const sut = modelSut({ limit: 6200 })
    const result = await search(sut)
    expect(sut.offered.slice(0, 4)).toEqual([100, 2500, 5000, 7500])
    // Bisection: between 5000 (held) and 7500 (not held), halving until the two are within RESOLUTION.
    expect(sut.offered.slice(4)).toEqual([6250, 5625, 5938, 6094])
    expect(result.capacityPerSec).toBe(6094)
    expect(result.limitedBy).toBe('objective')
    expect(result.limit).toBe('at 6,250 req/s: p99 12 ms > 10 ms at 6250')
    expect(6250 / 6094).toBeLessThanOrEqual(1 + RESOLUTION)
  })

  it('gives capacity 0 with the reason when not even the lowest step is held', async () => {
    const sut = modelSut({ limit: 50 })
    const result = await search(sut)
    expect(sut.offered).toEqual([100])
    expect(result).toEqual({ capacityPerSec: 0, limitedBy: 'objective', limit: 'at 100 req/s: p99 12 ms > 10 ms at 100' })
  })

  it('gives capacity 0 when the top is below the lowest step, measuring nothing', async () => {
    const sut = modelSut({ limit: 1000 })
    const result = await search(sut, { minRatePerSec: 500, topPerSec: 320 })
    expect(sut.offered).toEqual([])
    expect(result.capacityPerSec).toBe(0)
    expect(result.limit).toBe('the closed-loop ceiling (320 req/s) is below the lowest step (500 req/s)')
  })

  it('stops at the top when every step is held', async () => {
    const sut = modelSut({ limit: 1e9 })
    const result = await search(sut, { topPerSec: 4000, topIs: '--max-rate', beyondTop: false })
    expect(sut.offered).toEqual([100, 1000, 2000, 3000, 3600, 4000])
    expect(result).toEqual({ capacityPerSec: 4000, limitedBy: 'top', limit: 'held up to --max-rate' })
  })

  it('goes on above a closed-loop ceiling every step held, up to twice it, and bisects where it stops holding', async () => {
    const sut = modelSut({ limit: 5600 })
    const result = await search(sut, { topPerSec: 4000 })
    expect(sut.offered.slice(0, 8)).toEqual([100, 1000, 2000, 3000, 3600, 4000, 5000, 6000])
    expect(result.capacityPerSec).toBeGreaterThanOrEqual(5600 / (1 + RESOLUTION))
    expect(result.capacityPerSec).toBeLessThanOrEqual(5600)
    expect(result.limitedBy).toBe('objective')
    const unbounded = modelSut({ limit: 1e9 })
    expect(await search(unbounded, { topPerSec: 4000 }))
      .toEqual({ capacityPerSec: 8000, limitedBy: 'top', limit: 'held up to 2 × the closed-loop ceiling' })
  })

  it('never counts a step the generator fell behind on as held, and says the generator stopped it', async () => {
    const sut = modelSut({ limit: 9000, generatorFrom: 7000 })
    const result = await search(sut)
    expect(result.capacityPerSec).toBeLessThan(7000)
    expect(result.limitedBy).toBe('generator')
    expect(result.limit).toContain('the generator lagged')
    // Each step the generator stays behind on is measured three times (twice again) before it counts as not held.
    expect(sut.offered.slice(0, 6)).toEqual([100, 2500, 5000, 7500, 7500, 7500])
  })

  it('measures a step again when the generator fell behind once, and judges the SUT by the step it kept to', async () => {
    const sut = modelSut({ limit: 6200, generatorLateOnce: [100, 5000] })
    const result = await search(sut)
    expect(sut.offered.slice(0, 6)).toEqual([100, 100, 2500, 5000, 5000, 7500])
    expect(result).toMatchObject({ capacityPerSec: expect.any(Number), limitedBy: 'objective' })
    expect(result.capacityPerSec).toBeGreaterThan(6200 / (1 + RESOLUTION))
    expect(result.capacityPerSec).toBeLessThanOrEqual(6200)
  })

  it('confirms a failure the step says may not be the SUT\'s: held on a later attempt it is held; failed on three it counts', async () => {
    /** @type {{ rate: number, attempt: number }[]} */
    const calls = []
    const measureStep = async (/** @type {number} */ rate, /** @type {number} */ attempt) => {
      calls.push({ rate, attempt })
      // Below 3,000 req/s every first attempt meets a pause; from 3,000 up the SUT fails every time, while under half a core.
      const held = rate < 3000 && attempt > 1
      return {
        held,
        generatorBehind: false,
        cutShort: false,
        reason: held ? null : `p99 12 ms > 10 ms at ${rate}`,
        measureAgain: held ? null : 'the SUT used 20 % of a core, under 50 %'
      }
    }
    const result = await searchCapacity({ minRatePerSec: 100, topPerSec: 4000, topIs: '--max-rate', beyondTop: false, measureStep })
    expect(calls.slice(0, 7)).toEqual([{ rate: 100, attempt: 1 }, { rate: 100, attempt: 2 }, { rate: 1000, attempt: 1 },
      { rate: 1000, attempt: 2 }, { rate: 2000, attempt: 1 }, { rate: 2000, attempt: 2 }, { rate: 3000, attempt: 1 }])
    expect(calls.slice(7, 9)).toEqual([{ rate: 3000, attempt: 2 }, { rate: 3000, attempt: 3 }])
    expect(calls.every((call) => call.attempt <= 3)).toBe(true)
    expect(result.capacityPerSec).toBeLessThan(3000)
    expect(result.limitedBy).toBe('objective')
    expect(result.limit).toMatch(/^at [\d,]+ req\/s: not held on 3 attempts; the last: p99 12 ms > 10 ms at \d+$/)
  })

  it('knows no capacity when interrupted, and says what was held before', async () => {
    const sut = modelSut({ limit: 6200, interruptAt: 7000 })
    const result = await search(sut)
    expect(sut.offered).toEqual([100, 2500, 5000, 7500])
    expect(result).toEqual({ capacityPerSec: null, limitedBy: 'interrupted', limit: 'interrupted at 7,500 req/s, 5,000 req/s held before' })
  })
})
