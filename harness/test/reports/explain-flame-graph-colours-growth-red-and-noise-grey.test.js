// @ts-check
// The difference flame graph of `dyno explain --format html` (icicle-svg.js) colours each box by its change: red where the candidate
// runs more instructions, blue where fewer, grey within the cell's noise (here ±210 per request); a function gone from the candidate
// still has its box, as wide as its baseline.
import { expect, it } from 'vitest'
import { explainChange } from '../../src/reports/explain/explain-change.js'
import { explanationsHtml } from '../../src/reports/explain/explain-html.js'
import { BASELINE, CANDIDATE, countOf, NOISE_PER_REQUEST } from '../support/two-function-profiles.js'

const explanation = explainChange(countOf(BASELINE), countOf(CANDIDATE), { top: 10 })
const page = explanationsHtml([explanation])

/**
 * @param {string} name a function's
 * @returns {{ hue: number, saturation: number, widthPx: number }[]} its boxes (the whole graph's, its layer's across the page)
 */
function boxesOf (name) {
  const boxes = [...page.matchAll(/<g class="box function"><title>([^<]*)<\/title><rect [^>]*width="([\d.]+)"[^>]*fill="([^"]+)"/g)]
    .filter((match) => match[1].startsWith(`${name}\n`))
  expect(boxes.length, name).toBeGreaterThan(0)
  return boxes.map((match) => {
    const colour = /^hsl\((\d+), (\d+)%, (\d+)%\)$/.exec(match[3])
    expect(colour, match[3]).not.toBeNull()
    return { hue: Number(colour?.[1]), saturation: Number(colour?.[2]), widthPx: Number(match[2]) }
  })
}

it('is judged against the cell\'s noise', () => {
  expect(explanation.noise.perRequest).toBe(NOISE_PER_REQUEST)
})

it('draws a function that grew beyond the noise red', () => {
  // send: 3,000 → 4,000 charged instructions per request.
  for (const box of boxesOf('send')) {
    expect(box.hue <= 20 || box.hue >= 340, `hue ${box.hue}`).toBe(true)
    expect(box.saturation).toBeGreaterThanOrEqual(50)
  }
})

it('draws one that moved within the noise grey', () => {
  // json: 2,000 → 2,050, a quarter of the band.
  for (const box of boxesOf('json')) expect(box.saturation).toBe(0)
})

it('draws one gone from the candidate blue, as wide as its baseline beside one as wide as its candidate', () => {
  const [fresh] = boxesOf('fresh')
  const [etag] = boxesOf('etag')
  expect(fresh.hue).toBeGreaterThan(180)
  expect(fresh.hue).toBeLessThan(250)
  expect(fresh.saturation).toBeGreaterThanOrEqual(50)
  // 800 against 600 instructions per request, on one scale.
  expect(fresh.widthPx / etag.widthPx).toBeCloseTo(800 / 600, 1)
})
