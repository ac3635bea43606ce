// @ts-check
import { describe, expect, it } from 'vitest'
import { instructionThreshold } from '../../src/judging/stats/instruction-threshold.js'

// Reference: the per-window log ratios of the paired case are ln(1.010), ln(1.012), ln(1.009), ln(1.011), ln(1.030), ln(1.010);
// their median absolute deviation (python's statistics.median of |d − median(d)|) is 0.000989, × 1.4826 = 0.1466% a window;
// the standard error of their mean is that / √6 = 0.0599%, and 1.96 of it is 0.1173%.
const baseline = [1000, 1000, 1000, 1000, 1000, 1000]
const candidate = [1010, 1012, 1009, 1011, 1030, 1010]

describe('the threshold of an instruction-count row', () => {
  it('is the 95% band of an A/A estimate from its per-window ratios, robust to one odd window, and never below the floor', () => {
    expect(instructionThreshold({ baseline, candidate, paired: true }, { givenPercent: null, floorPercent: 0.1 }))
      .toEqual({ percent: 0.12, from: 'spread', spreadPercent: 0.12 })
    expect(instructionThreshold({ baseline, candidate, paired: true }, { givenPercent: null, floorPercent: 0.5 }))
      .toEqual({ percent: 0.5, from: 'floor', spreadPercent: 0.12 })
  })

  it('does not widen when the whole candidate moves: a real change shifts the ratios, not their spread', () => {
    const shifted = candidate.map((value) => value * 1.05)
    expect(
      instructionThreshold({ baseline, candidate: shifted, paired: true }, { givenPercent: null, floorPercent: 0.1 }).spreadPercent
    ).toBe(0.12)
  })

  it('adds both sides\' spreads when the windows cannot be paired, and takes a given threshold as it is', () => {
    const noisy = [1000, 1100, 900, 1000, 1050, 950]
    const unpaired = instructionThreshold(
      { baseline: noisy, candidate: noisy.slice(0, 5), paired: false },
      { givenPercent: null, floorPercent: 0.5 }
    )
    expect(unpaired.from).toBe('spread')
    expect(unpaired.percent).toBe(8.69)
    expect(instructionThreshold({ baseline, candidate, paired: true }, { givenPercent: 2, floorPercent: 0.5 }))
      .toEqual({ percent: 2, from: 'given', spreadPercent: null })
    expect(
      instructionThreshold({ baseline: [1000, 1001], candidate: [1002, 1003], paired: true }, { givenPercent: null, floorPercent: 0.5 })
    ).toEqual({ percent: 0.5, from: 'floor', spreadPercent: null })
  })
})
