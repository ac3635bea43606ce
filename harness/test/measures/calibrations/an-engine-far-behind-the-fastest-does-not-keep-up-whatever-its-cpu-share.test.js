// @ts-check
// The engine calibration's rule for "keeps up": an engine keeps up with the ceiling SUT at a level only when its cpu share did not mark
// it bound and its rate reached most of the fastest engine's against the same SUT. The figures below are those of a calibration kept
// on this machine while the hypervisor and a test suite took a third of its cpus: autocannon's share stayed under the bound, and it
// drove a third of the native engine's rate.
import { describe, expect, it } from 'vitest'
import { KEEPS_UP_SHARE_OF_FASTEST, keptUpAt } from '../../../src/measures/calibrations/engine-choice/keeps-up.js'

/**
 * @param {Record<string, { requestsPerSec: number | null, generatorBound: boolean | null }>} engines
 * @returns {import('../../../src/measures/calibrations/engine-choice/engine-choice.js').LevelCalibration}
 */
const level = (engines) => ({
  measuredAt: '2026-12-03T12:35:47.268Z',
  sut: 'uwebsockets',
  engines: Object.fromEntries(Object.entries(engines).map(([name, figures]) => [name, { generatorSharePct: 50, ...figures }]))
})

/** autocannon's figures and the native engine's at one level. @param {number | null} autocannon @param {boolean | null} bound */
const pair = (autocannon, bound, native = 40_000) =>
  level({ autocannon: { requestsPerSec: autocannon, generatorBound: bound }, native: { requestsPerSec: native, generatorBound: false } })

describe('whether an engine kept up at a level of the engine calibration', () => {
  it('says an engine at a third of the fastest engine\'s rate did not keep up, though its cpu share did not mark it bound', () => {
    const stolen = pair(21_696, false, 65_712)
    expect(keptUpAt(stolen, 'autocannon')).toEqual({ keepsUp: false, why: '33 % of the fastest engine\'s rate' })
    expect(keptUpAt(stolen, 'native')).toEqual({ keepsUp: true, why: null })
  })

  it('lets an engine a little behind the fastest keep up, and draws the line at the share it names', () => {
    const fastest = 40_000
    const at = (/** @type {number} */ rate) => keptUpAt(pair(rate, false, fastest), 'autocannon').keepsUp
    expect(at(36_000)).toBe(true)
    expect(at(fastest * KEEPS_UP_SHARE_OF_FASTEST)).toBe(true)
    expect(at(fastest * KEEPS_UP_SHARE_OF_FASTEST - 1)).toBe(false)
    // Faster than the other engine: the other is the one behind.
    expect(at(50_000)).toBe(true)
  })

  it('says an engine bound by its cpu did not keep up, and one not measured (or without a verdict) neither, without a reason', () => {
    const bound = pair(39_000, true)
    expect(keptUpAt(bound, 'autocannon')).toEqual({ keepsUp: false, why: 'bound by its cpu' })
    const unjudged = pair(null, null)
    expect(keptUpAt(unjudged, 'autocannon')).toEqual({ keepsUp: false, why: null })
    expect(keptUpAt(unjudged, 'wrk')).toEqual({ keepsUp: false, why: null })
    expect(keptUpAt(undefined, 'native')).toEqual({ keepsUp: false, why: null })
  })
})
