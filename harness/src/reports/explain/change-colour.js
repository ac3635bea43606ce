// @ts-check
// The colour of a change, for the flame graph's boxes and the tables' change cells: red for more instructions, blue for fewer, grey
// within the noise. The strength grows with the change's logarithm in units of the noise, so that a function's change of a few bands
// still shows beside a layer's of a hundred; a change just beyond the noise is already clearly tinted.
/** Within the noise. */
export const NOISE_GREY = 'hsl(0, 0%, 86%)'
const MORE_HUE = 4
const FEWER_HUE = 214

/**
 * @param {number} changePerRequest
 * @param {{ withinNoise: boolean, noisePerRequest: number, largestPerRequest: number }} scale whether the change is within its noise
 *   (a layer's band can be wider than the cell's), the cell's noise band, and the largest change drawn (the strongest colour)
 * @returns {string} a CSS colour from numbers alone
 */
export function changeColour (changePerRequest, { withinNoise, noisePerRequest, largestPerRequest }) {
  const size = Math.abs(changePerRequest)
  if (withinNoise || size === 0) return NOISE_GREY
  const unit = Math.max(noisePerRequest, 1)
  const strength = Math.min(1, Math.log1p(size / unit) / Math.log1p(Math.max(largestPerRequest, size) / unit))
  const lightness = Math.round(86 - 34 * (0.2 + 0.8 * strength))
  return `hsl(${changePerRequest > 0 ? MORE_HUE : FEWER_HUE}, 78%, ${lightness}%)`
}
