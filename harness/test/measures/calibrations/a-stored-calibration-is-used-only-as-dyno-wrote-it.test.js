// @ts-check
// The engine calibration and the noise calibration are read back from the cache directory only as dyno wrote them: readable JSON,
// sealed by this cache directory, measured with this machine's key, holding figures of the right kinds. Anything else is not used,
// with one line naming the file and why, and the run measures again (the journeys of run-uses-one-engine-chosen-once-per-machine and
// the-machines-spread-is-measured-once-and-sizes-the-default-rounds measure again from a file refused here, and from no file).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readEngineCalibration } from '../../../src/measures/calibrations/engine-choice/engine-choice.js'
import { readNoiseCalibration } from '../../../src/measures/calibrations/noise/noise-calibration.js'
import { sealOf } from '../../../src/platform/util/cache-seal.js'

const cacheDir = mkdtempSync(join(tmpdir(), 'dyno-stored-calibration-'))
/** This machine's key as the readers are given it: the fields a stored calibration must carry unchanged. */
const KEY = Object.freeze({
  dyno: '0.1.0',
  cpu: 'a cpu',
  cores: 2,
  memoryGiB: 24,
  kernel: '6.1.0',
  node: 'v20.20.2',
  engines: { native: '0.1.0', autocannon: '8.0.0' },
  sutCpus: [0],
  generatorCpus: [1]
})
const LEVEL = Object.freeze({
  measuredAt: '2026-12-02T01:00:00.000Z',
  sut: 'node-net',
  engines: {
    native: { requestsPerSec: 40_000, generatorSharePct: 60, generatorBound: false, disturbed: null },
    autocannon: { requestsPerSec: 20_000, generatorSharePct: 100, generatorBound: true }
  }
})
const NOISE = Object.freeze({
  variance: 0.04, df: 12, launchOverheadSec: 0.8, measuredAt: '2026-12-02T01:00:00.000Z', disturbedLaunches: 1
})

let files = 0
/** @param {string} text @returns {string} a new file in the cache directory holding text */
function stored (text) {
  const file = join(cacheDir, `calibration-${files++}.json`)
  writeFileSync(file, text)
  return file
}
/** @param {Record<string, unknown>} content @returns {string} a file holding content as dyno writes it, sealed */
const sealed = (content) => stored(JSON.stringify({ ...content, seal: sealOf(cacheDir, content) }))

describe('the engine calibration', () => {
  it('is read back as dyno wrote it', () => {
    const file = sealed({ key: KEY, levels: { 10: LEVEL } })
    expect(readEngineCalibration(file, cacheDir, KEY)).toEqual({ levels: { 10: LEVEL }, note: null })
  })

  it('is measured anew, without a word, where there is none', () => {
    expect(readEngineCalibration(join(cacheDir, 'absent.json'), cacheDir, KEY)).toEqual({ levels: {}, note: null })
  })

  it('is ignored, saying why, when it is not JSON, was measured elsewhere, or is not sealed by this cache directory', () => {
    const corrupt = stored('{ not json')
    expect(readEngineCalibration(corrupt, cacheDir, KEY)).toEqual({
      levels: {}, note: `the engine calibration ${corrupt} is not readable JSON (corrupt): ignored, measured again`
    })
    const elsewhere = sealed({ key: { ...KEY, cores: 64 }, levels: { 10: LEVEL } })
    expect(readEngineCalibration(elsewhere, cacheDir, KEY).note)
      .toBe(`the engine calibration ${elsewhere} was measured with another cores: ignored, measured again`)
    // Well formed, the right key, figures that would choose the other engine, but written by hand.
    const madeUp = stored(JSON.stringify({ key: KEY, levels: { 10: LEVEL }, seal: 'f'.repeat(64) }))
    expect(readEngineCalibration(madeUp, cacheDir, KEY)).toEqual({
      levels: {},
      note: `the engine calibration ${madeUp} was not written by dyno with this cache directory (its seal does not hold): ignored, ` +
        'measured again'
    })
  })

  it('keeps the levels it can read and names each one it cannot, which is measured again', () => {
    const file = sealed({ key: KEY, levels: { 10: LEVEL, 50: { measuredAt: 'soon', sut: 'node-net' } } })
    expect(readEngineCalibration(file, cacheDir, KEY)).toEqual({
      levels: { 10: LEVEL },
      note: `the engine calibration ${file} holds levels dyno cannot read (level 50: measuredAt is not a date): those measured again`
    })
    const figures = sealed({ key: KEY, levels: { 10: { ...LEVEL, engines: { native: { requestsPerSec: 'many' } } } } })
    expect(readEngineCalibration(figures, cacheDir, KEY).note)
      .toContain('(level 10: engines.native\'s figures are not numbers)')
    const format = sealed({ key: KEY, levels: 'all of them' })
    expect(readEngineCalibration(format, cacheDir, KEY)).toEqual({
      levels: {}, note: `the engine calibration ${format} was measured with another format: ignored, measured again`
    })
  })
})

describe('the noise calibration', () => {
  const key = { ...KEY, load: { scenario: 'json', connections: 10, warmupSec: 0.15, roundSec: 1, engine: 'native' } }

  it('is read back as dyno wrote it', () => {
    const file = sealed({ key, calibration: NOISE })
    expect(readNoiseCalibration(file, cacheDir, key)).toEqual({ calibration: NOISE, note: null })
  })

  it('is read back with the cost\'s spread, and without it as an earlier version wrote it (the cost\'s spread unknown)', () => {
    const withCost = { ...NOISE, costVariance: 0.01, costDf: 12, cpuUsPerRequest: { fastify: [40.1, 41.5] } }
    expect(readNoiseCalibration(sealed({ key, calibration: withCost }), cacheDir, key)).toEqual({ calibration: withCost, note: null })
    const earlier = readNoiseCalibration(sealed({ key, calibration: NOISE }), cacheDir, key).calibration
    expect(earlier?.costVariance).toBeUndefined()
  })

  it('is ignored, saying why, when edited by hand, measured with another load, or holding figures of the wrong kind', () => {
    // The seal dyno gave it, over a variance set to 0 by hand.
    const seal = sealOf(cacheDir, { key, calibration: NOISE })
    const edited = stored(JSON.stringify({ key, calibration: { ...NOISE, variance: 0 }, seal }))
    expect(readNoiseCalibration(edited, cacheDir, key)).toEqual({
      calibration: null,
      note: `the noise calibration ${edited} was not written by dyno with this cache directory (its seal does not hold): ignored, ` +
        'measured again'
    })
    const otherLoad = sealed({ key: { ...key, load: { ...key.load, roundSec: 2 } }, calibration: NOISE })
    expect(readNoiseCalibration(otherLoad, cacheDir, key).note)
      .toBe(`the noise calibration ${otherLoad} was measured with another load: ignored, measured again`)
    for (const [field, value, problem] of /** @type {const} */ ([
      ['variance', -1, 'variance is not a variance'],
      ['df', 0.5, 'df is not a count'],
      ['measuredAt', 'yesterday', 'measuredAt is not a date'],
      ['launchOverheadSec', null, 'launchOverheadSec is not a number of seconds'],
      ['disturbedLaunches', -2, 'disturbedLaunches is not a count'],
      ['costVariance', 'small', 'costVariance is not a variance'],
      ['costDf', 0, 'costDf is not a count']
    ])) {
      const file = sealed({ key, calibration: { ...NOISE, [field]: value } })
      expect(readNoiseCalibration(file, cacheDir, key)).toEqual({
        calibration: null, note: `the noise calibration ${file} cannot be read (${problem}): ignored, measured again`
      })
    }
  })
})
