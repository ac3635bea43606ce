// @ts-check
// How long a step is measured: at least ceil(20 / (1 − P/100)) requests after its warm-up for an objective's highest percentile P, so
// that twenty lie past it and one pause of the machine cannot be the percentile alone; at a rate too low to send them in --step, the
// step is lengthened to send them. The figures docs/measuring.md gives, and the short windows a step's steal is read in.
import { describe, expect, it } from 'vitest'
import { parseObjective } from '../../../src/measures/capacity/objective.js'
import { objectiveRequests, requiredRequests, stepDurationSec } from '../../../src/measures/capacity/step-length.js'
import { stepPauses } from '../../../src/measures/capacity/step-pauses.js'

/** @param {string} text @returns {import('../../../src/measures/capacity/objective.js').Objective} */
function objective (text) {
  const parsed = parseObjective(text)
  if ('problem' in parsed) throw new Error(parsed.problem)
  return parsed.objective
}

describe('a step', () => {
  it('holds twenty requests past its percentile', () => {
    expect(requiredRequests(50)).toBe(40)
    expect(requiredRequests(90)).toBe(200)
    expect(requiredRequests(99)).toBe(2000)
    // Not one more from the float 100 − 99.9 = 0.0999…
    expect(requiredRequests(99.9)).toBe(20_000)
    expect(requiredRequests(99.99)).toBe(200_000)
    expect(requiredRequests(75)).toBe(80)
  })

  it('needs what its highest percentile needs, whichever order its terms were given in', () => {
    expect(objectiveRequests(objective('p99<=10ms,p50<=2ms'))).toBe(2000)
    expect(objectiveRequests(objective('p50<=2ms'))).toBe(40)
  })

  it('is lengthened at a rate too low to send them in --step, and is --step above it', () => {
    // p99 at 100 req/s: 2,000 requests take 20 s.
    expect(stepDurationSec({ stepSec: 1, ratePerSec: 100, requests: 2000 })).toBe(20)
    expect(stepDurationSec({ stepSec: 1, ratePerSec: 2000, requests: 2000 })).toBe(1)
    expect(stepDurationSec({ stepSec: 1, ratePerSec: 5000, requests: 2000 })).toBe(1)
    expect(stepDurationSec({ stepSec: 5, ratePerSec: 100, requests: 2000 })).toBe(20)
    // Rounded up to the ms, so that the rate times the duration is never short of the requests.
    expect(stepDurationSec({ stepSec: 0.2, ratePerSec: 300, requests: 2000 })).toBe(6.667)
    expect(6.667 * 300).toBeGreaterThanOrEqual(2000)
    expect(stepDurationSec({ stepSec: 0.2, ratePerSec: 100, requests: 40 })).toBe(0.4)
  })

  it('reads the steal of its cpus window by window, so that one pause is not averaged away', () => {
    /** @type {any} */
    const summary = {
      interference: {
        intervalMs: 100,
        samples: [{ tMs: 100, stealPct: 2, othersPct: {} }, { tMs: 200, stealPct: 15, othersPct: {} },
          { tMs: 300, stealPct: 0, othersPct: {} }]
      },
      eventLoop: { maxMs: 3.5 },
      rate: { maxSendLagMs: 0.8 }
    }
    expect(stepPauses(summary)).toEqual({ stealMaxMs: 15, stealWindowMs: 100, sutEventLoopMaxMs: 3.5, generatorLagMaxMs: 0.8 })
    expect(stepPauses(null)).toEqual({ stealMaxMs: null, stealWindowMs: null, sutEventLoopMaxMs: null, generatorLagMaxMs: null })
  })
})
