// @ts-check
// Does a cell read lower when it is the first its launch of the SUT serves? A launch serves a SUT's scenarios one after another, and
// the framework's shared path keeps compiling across them: each round of a cell comes at some place in its launch (its result's
// `sutProcess.servedBefore`), and the places differ between rounds. For each run directory: every ok round's ln req/s less the mean of
// its cell's rounds, averaged by its place in the launch (0: the first cell), with the pooled spread of a round; and how the run's
// launches were warmed. Two runs of the same plan, one without and one with a launch warmed over all its routes, show what the
// warm-up removes.
//
//   node harness/bench/launch-position.js RUN_DIR [RUN_DIR …] [--write]
//   (--write: put the figures into docs/measuring.md, in the launch-position block)
import { parseArgs } from 'node:util'
import { mean, standardDeviation } from 'simple-statistics'
import { readRun } from '../src/records/read-run.js'
import { loadTimesText } from '../src/measures/load-settings.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values, positionals } = parseArgs({ allowPositionals: true, options: { write: { type: 'boolean', default: false } } })
if (positionals.length === 0) throw new Error('usage: node harness/bench/launch-position.js RUN_DIR [RUN_DIR …] [--write]')

/** Places after this one are pooled into one column: a launch serves a SUT's scenarios, eight in the default plan. */
const LAST_PLACE = 7

/** @param {number} value @returns {string} a deviation of ln req/s, signed, with its rough percentage */
const deviation = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)} (${value >= 0 ? '+' : '−'}` +
  `${Math.abs((Math.exp(value) - 1) * 100).toFixed(1)} %)`

/**
 * @param {ReturnType<typeof readRun>} run
 * @returns {{ byPlace: number[][], spreadSd: number, cells: number, launches: string }}
 */
function positionsOf (run) {
  /** @type {Map<string, { place: number, lnRate: number }[]>} */
  const cells = new Map()
  for (const record of run.records) {
    if (record.status !== 'ok' || !record.summary || !(record.summary.requestsPerSec.mean > 0)) continue
    const key = `${record.sut.label}\n${record.scenario.name}\n${record.load.connections}`
    cells.set(key, [...(cells.get(key) ?? []), {
      place: Math.min(LAST_PLACE, record.sutProcess.servedBefore ?? 0),
      lnRate: Math.log(record.summary.requestsPerSec.mean)
    }])
  }
  /** @type {number[][]} */
  const byPlace = Array.from({ length: LAST_PLACE + 1 }, () => [])
  const variances = []
  for (const rounds of cells.values()) {
    if (rounds.length < 2) continue
    const center = mean(rounds.map((round) => round.lnRate))
    for (const round of rounds) byPlace[round.place].push(round.lnRate - center)
    variances.push(standardDeviation(rounds.map((round) => round.lnRate)) ** 2 * rounds.length / (rounds.length - 1))
  }
  const first = run.records[0]
  return {
    byPlace,
    spreadSd: variances.length > 0 ? Math.sqrt(mean(variances)) : Number.NaN,
    cells: variances.length,
    launches: first ? loadTimesText(first.load) : 'no results'
  }
}

const rows = positionals.map((dir) => {
  const run = readRun(dir)
  return { runId: run.index.runId, ...positionsOf(run) }
})
const header = `| run | load | cells | a round's spread (sd of ln req/s) | ${Array.from({ length: LAST_PLACE + 1 },
  (_, place) => place === LAST_PLACE ? `${place}+` : String(place)).join(' | ')} |`
const lines = [
  'Each ok round\'s ln req/s less the mean of its cell\'s rounds, averaged by its place in its launch (0: the first cell the launch ' +
    'served; n rounds in brackets). A place that reads below 0 is a place whose cells read lower than the same cells elsewhere.',
  '',
  header,
  `|---|---|---:|---:|${'---:|'.repeat(LAST_PLACE + 1)}`,
  ...rows.map((row) => `| \`${row.runId}\` | ${row.launches} | ${row.cells} | ${row.spreadSd.toFixed(3)} | ` +
    row.byPlace.map((deviations) => deviations.length > 0 ? `${deviation(mean(deviations))} [${deviations.length}]` : '–').join(' | ') +
    ' |')
]
process.stdout.write(lines.join('\n') + '\n')
if (values.write) writeMeasuredBlock({ script: import.meta.url, lines, argv: ['RUN_DIR …', '--write'] })
