// @ts-check
// What moving from one Node line to the next does to a framework, told two ways: by settled counts (a timeline's data directory:
// each release counted on both lines, its windows' program instructions per request compared as the timeline compares
// neighbouring releases) and by wall clock (a run of the same releases on both lines in interleaved rounds of fresh launches,
// each round's node@B req/s over the node@A round of the same repeat, their paired Hodges–Lehmann ratio with its 95% interval).
// Do the two agree in direction, and roughly in size?
//
//   pnpm bench --frameworks express@4.22.3,express@5.3.0,fastify@5.12.8 --runtime node@22,node@24 --scenarios json,params --repeats 10
//   node harness/bench/node-line-change.js data/timeline RUN_DIR [--from node@22] [--to node@24] [--write]
//   (--write: put the table into docs/timeline.md, replacing its block)
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { openDataset } from '../src/history/timeline/timeline-dataset.js'
import { countStep } from '../src/judging/stats/count-step.js'
import { pairedHodgesLehmannRatio } from '../src/judging/stats/paired-hodges-lehmann.js'
import { SIGNIFICANCE_ALPHA } from '../src/judging/stats/significance.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { readRun } from '../src/records/read-run.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: 'string', default: 'node@22' },
    to: { type: 'string', default: 'node@24' },
    write: { type: 'boolean', default: false }
  }
})
if (positionals.length !== 2) {
  throw new Error('usage: node harness/bench/node-line-change.js DATA_DIR RUN_DIR [--from node@22] [--to node@24] [--write]')
}
const [dataDir, runDir] = positionals
const { from, to } = values

/** @param {number} ratio @returns {string} */
const pct = (ratio) => `${ratio >= 1 ? '+' : '−'}${Math.abs((ratio - 1) * 100).toFixed(1)} %`
/** @param {[number, number] | null} interval @returns {string} */
const span = (interval) => (interval ? `${pct(interval[0])} … ${pct(interval[1])}` : 'too few rounds for an interval')

/**
 * The counts: per release and scenario, the windows on both lines (settled counts only; a count not settled is named, not used).
 * @returns {Map<string, { release: string, scenario: string, counts?: { step: import('../src/judging/stats/count-step.js').CountStep,
 *   from: number, to: number } | { unsettled: string } }>}
 */
function countChanges () {
  const records = [...openDataset(resolve(dataDir)).values()].filter((record) => record.status === 'ok' && record.measures)
  /** @type {Map<string, Map<string, typeof records[number]>>} */
  const byCell = new Map()
  for (const record of records) {
    const cell = `${record.key.framework}@${record.key.release} ${record.key.scenario}`
    const lines = byCell.get(cell) ?? new Map()
    byCell.set(cell, lines)
    lines.set(record.key.runtime, record)
  }
  const changes = new Map()
  for (const [cell, lines] of byCell) {
    const before = lines.get(from)
    const after = lines.get(to)
    if (!before?.measures || !after?.measures) continue
    const [release, scenario] = cell.split(' ')
    const unsettled = [before, after].filter((record) => record.measures?.warmup && !record.measures.warmup.settled)
    if (unsettled.length > 0) {
      changes.set(cell, { release, scenario, counts: { unsettled: unsettled.map((record) => record.key.runtime).join(' and ') } })
      continue
    }
    const windows = (/** @type {typeof before} */ record) => (record.measures?.programPerWindow ?? []).map(Number)
    const step = countStep(windows(before), windows(after))
    changes.set(cell, {
      release,
      scenario,
      counts: { step, from: before.measures.programInstructionsPerRequest ?? 0, to: after.measures.programInstructionsPerRequest ?? 0 }
    })
  }
  return changes
}

/**
 * The wall clock: per release and scenario, the rounds on both lines paired by repeat.
 * @returns {Map<string, { ratio: number, interval: [number, number] | null, rounds: number, fromRate: number, toRate: number }>}
 */
function wallClockChanges () {
  const run = readRun(resolve(runDir))
  /** @type {Map<string, Map<string, Map<number, number>>>} cell → runtime → repeat → req/s */
  const rounds = new Map()
  for (const record of run.records) {
    if (record.status !== 'ok' || !record.summary || !(record.summary.requestsPerSec.mean > 0)) continue
    const release = `${record.sut.framework}@${record.sut.frameworkVersion}`
    const cell = `${release} ${record.scenario.name}`
    const lines = rounds.get(cell) ?? new Map()
    rounds.set(cell, lines)
    const byRepeat = lines.get(record.sut.runtime) ?? new Map()
    lines.set(record.sut.runtime, byRepeat)
    byRepeat.set(record.repeat.index, record.summary.requestsPerSec.mean)
  }
  const changes = new Map()
  for (const [cell, lines] of rounds) {
    const before = lines.get(from)
    const after = lines.get(to)
    if (!before || !after) continue
    const repeats = [...before.keys()].filter((repeat) => after.has(repeat)).sort((a, b) => a - b)
    if (repeats.length === 0) continue
    const baseline = repeats.map((repeat) => /** @type {number} */ (before.get(repeat)))
    const candidate = repeats.map((repeat) => /** @type {number} */ (after.get(repeat)))
    const estimate = pairedHodgesLehmannRatio(baseline, candidate, { alpha: SIGNIFICANCE_ALPHA })
    const median = (/** @type {number[]} */ list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
    changes.set(cell, {
      ratio: estimate.ratio,
      interval: /** @type {[number, number] | null} */ (estimate.interval),
      rounds: repeats.length,
      fromRate: median(baseline),
      toRate: median(candidate)
    })
  }
  return changes
}

const counted = countChanges()
const timed = wallClockChanges()
const cells = [...timed.keys()].filter((cell) => counted.has(cell)).sort()
if (cells.length === 0) throw new Error(`no release and scenario is both in ${dataDir} on ${from} and ${to} and in ${runDir}`)

const lines = [
  `${from} → ${to}, by settled counts (program instructions per request, Hodges–Lehmann over the windows, 95 % interval) and by ` +
    `wall clock (req/s, paired rounds of fresh launches interleaved in one run, ${runDir.split('/').pop()}):`,
  '',
  `| release | scenario | counts ${from} → ${to} | change by counts | req/s if it followed the counts | req/s ${from} → ${to} (median) | ` +
    'change in req/s | agree? |',
  '|---|---|---:|---:|---:|---:|---:|---|'
]
let agreeing = 0
let judged = 0
for (const cell of cells) {
  const count = /** @type {NonNullable<ReturnType<typeof countChanges> extends Map<string, infer V> ? V : never>} */ (counted.get(cell))
  const wall = /** @type {NonNullable<ReturnType<typeof wallClockChanges> extends Map<string, infer V> ? V : never>} */ (timed.get(cell))
  const wallText = `${pct(wall.ratio)} (${span(wall.interval)}, ${wall.rounds} rounds)`
  const rates = `${Math.round(wall.fromRate).toLocaleString('en-US')} → ${Math.round(wall.toRate).toLocaleString('en-US')}`
  if (!count.counts || 'unsettled' in count.counts) {
    const why = count.counts && 'unsettled' in count.counts ? `not settled on ${count.counts.unsettled}` : 'not counted'
    lines.push(`| ${count.release} | ${count.scenario} | ${why} | – | – | ${rates} | ${wallText} | – |`)
    continue
  }
  const { step } = count.counts
  // Fewer instructions per request is more requests per second: the directions agree when the two ratios fall on opposite sides of 1.
  const countsFaster = step.changePct < 0
  const wallFaster = wall.ratio > 1
  const wallSure = wall.interval ? wall.interval[0] > 1 || wall.interval[1] < 1 : false
  const verdict = !step.steps && !wallSure
    ? 'both: no change shown'
    : !step.steps || !wallSure
        ? `only ${step.steps ? 'the counts' : 'the wall clock'} show a change`
        : countsFaster === wallFaster ? 'same direction' : 'opposite directions'
  if (step.steps && wallSure) {
    judged += 1
    if (countsFaster === wallFaster) agreeing += 1
  }
  const signed = (/** @type {number} */ value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`
  const countText = `${signed(step.changePct)} % (${step.intervalPct.map(signed).join(' … ')} %${step.steps ? '' : ', no step'})`
  const counts = `${Math.round(count.counts.from / 1000)}k → ${Math.round(count.counts.to / 1000)}k`
  // A request that costs (1 + c) times the instructions, on a cpu that is the bottleneck, is served 1 / (1 + c) times as often.
  const implied = `${signed((1 / (1 + step.changePct / 100) - 1) * 100)} %`
  lines.push(`| ${count.release} | ${count.scenario} | ${counts} | ${countText} | ${implied} | ${rates} | ${wallText} | ${verdict} |`)
}
lines.push('', `Of the ${judged} release × scenario cells where both ways show a change, ${agreeing} agree in direction.`)
process.stdout.write(`${lines.join('\n')}\n`)
if (values.write) {
  writeMeasuredBlock({ script: import.meta.url, lines, file: join(REPO_ROOT, 'docs', 'timeline.md') })
  process.stdout.write('written to docs/timeline.md\n')
}
