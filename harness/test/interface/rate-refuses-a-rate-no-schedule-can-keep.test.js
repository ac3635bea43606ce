// @ts-check
// `--rate` refuses, at the boundary, a rate that would mean nothing: below one request in about 17 minutes, not a finite number, or
// above the most; the engines never see one (the native engine refuses such a config itself too, engines/native/src/config.rs).
import { describe, expect, it } from 'vitest'
import { RATE } from '../../src/interface/options/load-options.js'

describe('--rate', () => {
  it('refuses a rate below 0.001/s or one that is not a finite number, naming the value and what is allowed', () => {
    for (const value of ['0.0009', '0.00000000000000000001', '1e-20', '0', 'Infinity', 'NaN', `1${'0'.repeat(400)}`]) {
      expect(() => RATE.parse(value, '--rate')).toThrow(expect.objectContaining({
        code: 'DYNO_ERR_INVALID_OPTION',
        message: `\`--rate\` must be a number from 0.001, at most 1000000, got \`${value}\``
      }))
    }
  })

  it('takes every rate from 0.001/s to 1,000,000/s', () => {
    for (const value of [0.001, 0.5, 300, 1_000_000]) expect(RATE.parse(String(value), '--rate')).toBe(value)
  })
})
