// @ts-check
// Do two runs of the same plan on the same machine tell the same story? For each scenario of two run directories (two default
// `pnpm bench` runs back to back, say): Kendall's τ between their orders of the SUTs both measured, the pairs they put in opposite
// orders, and, of the pairs either run tells apart (rank-groups.js), the share the other run puts in the same order; the pairs more
// than 15 % apart in both runs that a run nonetheless leaves in one group; and the spread of each cell's ratio between the runs.
// Runs of one round have no groups: every pair counts as told apart, which is what their tables claim. The groups are made as a run
// makes them (aggregate-runs.js): on req/s or on the cpu cost per request (`--figure`; at the run's median cpu speed where every cost
// of the run was probed, as the run ranks it: judging/speed-adjustment.js), each pair judged within the blocks it shares.
//
// `--without-blocks` judges every pair on its cells alone (Welch's test), as runs before blocks were judged: what the blocks add.
//
//   node harness/bench/run-to-run-agreement.js RUN_DIR_A RUN_DIR_B [--label "after"] [--figure req/s|cost] [--without-blocks] [--write]
//   (--write: put the figures into docs/measuring.md, replacing the block's rows of the same label)
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { quantile } from 'simple-statistics'
import { readRun } from '../src/records/read-run.js'
import { rankGroups } from '../src/judging/stats/rank-groups.js'
import { blockOf, costRunsThatCount, runsThatCount } from '../src/records/aggregate-runs.js'
import { speedAdjustment } from '../src/judging/speed-adjustment.js'
import { MEASURING_DOC, blockMarkers, writeMeasuredBlock } from './support/measured-block.js'

/** @typedef {import('../src/records/result-record.js').ResultRecord} ResultRecord */

/** Two SUTs this far apart in both runs must never share a group. */
const CLEAR_GAP = 1.15

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    label: { type: 'string', default: 'after' },
    figure: { type: 'string', default: 'req/s' },
    'without-blocks': { type: 'boolean', default: false },
    write: { type: 'boolean', default: false }
  }
})
if (!['req/s', 'cost'].includes(String(values.figure))) throw new Error(`--figure must be req/s or cost, got ${values.figure}`)
/**
 * The figure the groups are made on, higher better: req/s, or requests per µs of the SUT's cpu (the cost's reciprocal, at the run's
 * median cpu speed where the run was probed throughout).
 * @param {ResultRecord} record
 * @param {import('../src/judging/speed-adjustment.js').SpeedAdjustment | null} adjustment the run's
 * @returns {number} 0: none
 */
function figureOf (record, adjustment) {
  if (values.figure !== 'cost') return record.summary?.requestsPerSec.mean ?? 0
  const cost = record.summary?.cpuCost
  const us = cost ? adjustment?.adjust(cost) ?? cost.cpuUsPerRequest : null
  return 1 / (us || Infinity)
}
if (positionals.length !== 2) throw new Error('usage: node harness/bench/run-to-run-agreement.js RUN_DIR_A RUN_DIR_B [--label L] [--write]')
const runs = positionals.map(readRun)

/**
 * Per scenario: each SUT's rounds (ok ones), its center and which pairs the run tells apart.
 * @param {ReturnType<typeof readRun>} run
 * @returns {Map<string, { suts: string[], centers: Map<string, number>, separated: (a: string, b: string) => boolean }>}
 */
function scenariosOf (run) {
  /** @type {Map<string, Map<string, { figures: number[], blocks: string[] }>>} */
  const rates = new Map()
  const adjustment = speedAdjustment(run.records.filter((record) => record.status === 'ok').map((record) => record.summary?.cpuCost))
  // The runs a cell's figure is made of, as the run makes it: where a cell has clean runs, its disturbed ones are left out (for the cost,
  // those disturbed on the SUT's own cpus).
  /** @type {Map<string, ResultRecord[]>} */
  const cells = new Map()
  for (const record of run.records) {
    const key = JSON.stringify([record.sut.label, record.scenario.name, record.load.connections])
    cells.set(key, [...(cells.get(key) ?? []), record])
  }
  const counted = values.figure === 'cost' ? costRunsThatCount : (/** @type {ResultRecord[]} */ group) => runsThatCount(group)
  for (const record of [...cells.values()].flatMap((group) => counted(group))) {
    if (!(figureOf(record, adjustment) > 0)) continue
    const perSut = rates.get(record.scenario.name) ?? new Map()
    rates.set(record.scenario.name, perSut)
    const kept = perSut.get(record.sut.label) ?? { figures: [], blocks: [] }
    kept.figures.push(figureOf(record, adjustment))
    kept.blocks.push(blockOf(record))
    perSut.set(record.sut.label, kept)
  }
  return new Map([...rates].map(([scenario, perSut]) => {
    const suts = [...perSut.keys()]
    const cells = suts.map((sut) => /** @type {{ figures: number[], blocks: string[] }} */ (perSut.get(sut)))
    const ranked = rankGroups(cells.map((cell) => cell.figures), values['without-blocks'] ? undefined : cells.map((cell) => cell.blocks))
    const oneRound = ranked.pairs.length === 0
    const told = new Set(ranked.pairs.filter((pair) => pair.separated).map((pair) => `${suts[pair.first]}\n${suts[pair.second]}`))
    return [scenario, {
      suts,
      centers: new Map(suts.map((sut, index) => [sut, ranked.cells[index].center])),
      separated: (a, b) => oneRound || told.has(`${a}\n${b}`) || told.has(`${b}\n${a}`)
    }]
  }))
}

/**
 * How far apart two SUTs are in a run, as the ratio of the faster to the slower.
 * @param {{ centers: Map<string, number> }} run @param {string} x @param {string} y
 */
function gap (run, x, y) {
  const [one, other] = [run.centers.get(x) ?? 0, run.centers.get(y) ?? 0]
  return Math.max(one / other, other / one)
}

const [first, second] = runs.map(scenariosOf)
const rows = []
const ratios = []
let toldApart = 0
let toldApartSameOrder = 0
let clearPairs = 0
let clearPairsGrouped = 0
let allPairs = 0
let allInverted = 0
for (const [scenario, a] of first) {
  const b = second.get(scenario)
  if (!b) continue
  const suts = a.suts.filter((sut) => b.centers.has(sut))
  let concordant = 0
  let discordant = 0
  let told = 0
  let toldSame = 0
  for (let i = 0; i < suts.length; i++) {
    const ratio = /** @type {number} */ (b.centers.get(suts[i])) / /** @type {number} */ (a.centers.get(suts[i]))
    ratios.push(ratio)
    for (let j = i + 1; j < suts.length; j++) {
      const [x, y] = [suts[i], suts[j]]
      const inA = Math.sign(/** @type {number} */ (a.centers.get(x)) - /** @type {number} */ (a.centers.get(y)))
      const inB = Math.sign(/** @type {number} */ (b.centers.get(x)) - /** @type {number} */ (b.centers.get(y)))
      if (inA * inB > 0) concordant++
      else if (inA * inB < 0) discordant++
      if (a.separated(x, y) || b.separated(x, y)) {
        told++
        if (inA * inB > 0) toldSame++
      }
      if (gap(a, x, y) > CLEAR_GAP && gap(b, x, y) > CLEAR_GAP) {
        clearPairs++
        if (!a.separated(x, y) || !b.separated(x, y)) clearPairsGrouped++
      }
    }
  }
  const pairs = suts.length * (suts.length - 1) / 2
  allPairs += pairs
  allInverted += discordant
  toldApart += told
  toldApartSameOrder += toldSame
  rows.push(
    `| ${values.label} | ${scenario} | ${suts.length} | ${((concordant - discordant) / pairs).toFixed(2)} | ${discordant} of ${pairs} | ` +
      `${toldSame} of ${told} |`
  )
}
const pct = (/** @type {number} */ part, /** @type {number} */ whole) => whole === 0 ? '-' : `${(part / whole * 100).toFixed(1)} %`
const spread = (/** @type {number} */ q) => `${((quantile(ratios, q) - 1) * 100).toFixed(1)} %`
const outside = ratios.filter((ratio) => ratio < 0.85 || ratio > 1.18).length
const summary = `| ${values.label} | all | | | ${allInverted} of ${allPairs} (${pct(allInverted, allPairs)}) | ` +
  `${toldApartSameOrder} of ${toldApart} (**${pct(toldApartSameOrder, toldApart)}**) |`
const lines = [
  ...rows,
  summary,
  '',
  `${values.label}: runs \`${runs[0].index.runId}\` and \`${runs[1].index.runId}\`; each cell's ratio between the runs: 5th–95th ` +
    'percentile ' +
    `${spread(0.05)} … ${spread(0.95)}, median ${spread(0.5)}; ${outside} of ${ratios.length} cells outside −15 % … +18 %; ` +
    `pairs more than ${Math.round((CLEAR_GAP - 1) * 100)} % apart in both runs: ${clearPairs}, of which left in one group by either run: ` +
    `${clearPairsGrouped}.`
]
console.log(lines.join('\n'))
if (values.write) {
  // The block holds one set of rows per label (before, after): the rows of this label are replaced, the others kept.
  const { start, end } = blockMarkers('run-to-run-agreement')
  const text = readFileSync(MEASURING_DOC, 'utf8')
  const otherRow = (/** @type {string} */ line) =>
    line.startsWith('| ') && !line.startsWith(`| ${values.label} |`) && !line.startsWith('| runs |')
  // A label may hold spaces and commas (`sized, 2026-11-28`): a note is any line of the block that starts with a label and `: runs `.
  const otherNote = (/** @type {string} */ line) => /^[^|*].*?: runs `/.test(line) && !line.startsWith(`${values.label}: runs`)
  const kept = text
    .slice(text.indexOf(start) + start.length, text.indexOf(end))
    .split('\n')
    .filter((line) => otherRow(line) || otherNote(line))
  const table = kept.filter((line) => line.startsWith('| ')).concat(rows, summary)
  const notes = kept.filter((line) => !line.startsWith('| ')).concat(lines.at(-1) ?? '')
  writeMeasuredBlock({
    script: import.meta.url,
    argv: ['RUN_DIR_A', 'RUN_DIR_B', '--label', String(values.label), '--figure', String(values.figure),
      ...(values['without-blocks'] ? ['--without-blocks'] : []), '--write'],
    lines: [
      '| runs | scenario | SUTs | Kendall τ | pairs in opposite orders | pairs either run tells apart, in the same order in the other |',
      '|---|---|---:|---:|---:|---:|',
      ...table,
      '',
      ...notes.flatMap((note) => [note, ''])
    ].slice(0, -1)
  })
}
