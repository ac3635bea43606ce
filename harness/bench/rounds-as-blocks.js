// @ts-check
// How much of the spread measuring rounds as blocks takes out here. It runs `dyno run` as a user does, over a few SUTs and scenarios
// for many rounds: each round's scenarios in a shuffled order, every SUT of a scenario back to back (a block), one launch of each SUT
// serving its round. Then, from the results, per scenario and pooled: the sd of ln req/s and of ln µs of the SUT's cpu per request
// between rounds (each SUT around its own mean), and within a block (a model of SUT + block, as the rank groups judge pairs:
// src/judging/stats/block-model.js); the share of the variance the block takes out, and the cost's spread beside the rate's. With what
// the hypervisor stole of the measured cpus over the run, since the cost never holds steal and the rate does.
//
//   node harness/bench/rounds-as-blocks.js [--suts node-http,fastify,express,go-gin] [--scenarios json,plaintext] [--rounds 10]
//     [--duration 1] [--engine native] [--no-block]
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { max, mean } from 'simple-statistics'
import { blockModel } from '../src/judging/stats/block-model.js'
import { pooledLogSpread } from '../src/measures/calibrations/noise/pooled-spread.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { blockOf } from '../src/records/aggregate-runs.js'
import { readRun } from '../src/records/read-run.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: {
    suts: { type: 'string', default: 'node-http,fastify,express,go-gin' },
    scenarios: { type: 'string', default: 'json,plaintext' },
    rounds: { type: 'string', default: '10' },
    duration: { type: 'string', default: '1' },
    engine: { type: 'string', default: 'native' },
    'no-block': { type: 'boolean', default: false }
  }
})
const rounds = Number(values.rounds)
if (!(Number.isInteger(rounds) && rounds >= 3 && rounds <= 200)) {
  throw new Error(`--rounds must be a whole number from 3 to 200, got ${values.rounds}`)
}

const out = mkdtempSync(join(tmpdir(), 'dyno-rounds-as-blocks-'))
const argv = ['harness/bin/dyno.js', 'run', '--frameworks', String(values.suts), '--scenarios', String(values.scenarios),
  '--repeats', String(rounds), '--duration', String(values.duration), '--engine', String(values.engine), '--out', out]
const startedAt = new Date()
const child = spawnSync(process.execPath, argv, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
const runDir = /^results: (.+)$/m.exec(child.stdout ?? '')?.[1]
if (!runDir) throw new Error(`dyno run wrote no run (exit ${child.status}):\n${child.stdout}`)
const run = readRun(runDir)
const ok = run.records.filter((record) => record.status === 'ok' && record.summary && record.summary.requestsPerSec.mean > 0)

/**
 * Each SUT's ln figure by block, for one scenario.
 * @param {typeof ok} records @param {(record: typeof ok[number]) => number | null} figure
 * @returns {Map<string, number>[]}
 */
function byBlock (records, figure) {
  /** @type {Map<string, Map<string, number>>} */
  const perSut = new Map()
  for (const record of records) {
    const value = figure(record)
    if (value === null || !(value > 0)) continue
    const blocks = perSut.get(record.sut.label) ?? new Map()
    blocks.set(blockOf(record), Math.log(value))
    perSut.set(record.sut.label, blocks)
  }
  return [...perSut.values()]
}

/** @param {Map<string, number>[]} cells @returns {{ between: number, within: number, df: number, blockDf: number } | null} */
function spreads (cells) {
  const between = pooledLogSpread(cells.map((cell) => [...cell.values()]))
  const within = blockModel(cells)
  if (!between || !within) return null
  return { between: between.variance, within: within.variance, df: between.df, blockDf: within.df }
}

const rate = (/** @type {typeof ok[number]} */ record) => record.summary?.requestsPerSec.mean ?? null
const cost = (/** @type {typeof ok[number]} */ record) => record.summary?.cpuCost?.cpuUsPerRequest ?? null
const scenarios = [...new Set(ok.map((record) => record.scenario.name))]
const rows = scenarios.map((scenario) => {
  const records = ok.filter((record) => record.scenario.name === scenario)
  return { scenario, rate: spreads(byBlock(records, rate)), cost: spreads(byBlock(records, cost)) }
})
/** Pooled over the scenarios, each by its degrees of freedom. @param {'rate' | 'cost'} figure @param {'between' | 'within'} which */
function pooled (figure, which) {
  const known = rows.flatMap((row) => row[figure] ? [(row[figure])] : [])
  const df = known.reduce((sum, entry) => sum + (which === 'between' ? entry.df : entry.blockDf), 0)
  return df === 0 ? NaN : known.reduce((sum, entry) => sum + entry[which] * (which === 'between' ? entry.df : entry.blockDf), 0) / df
}

const sd = (/** @type {number} */ variance) => Number.isFinite(variance) ? Math.sqrt(variance).toFixed(3) : '-'
const takenOut = (/** @type {number} */ between, /** @type {number} */ within) =>
  Number.isFinite(between) && between > 0 ? `${Math.round((1 - within / between) * 100)} %` : '-'
const cell = (/** @type {{ between: number, within: number } | null} */ entry) =>
  entry ? `${sd(entry.between)} | ${sd(entry.within)} | ${takenOut(entry.between, entry.within)}` : '- | - | -'
const steals = ok.flatMap((record) => Object.values(record.summary?.interference?.roles ?? {}).map((role) => role.stealPct ?? 0))
const disturbed = run.records.filter((record) => record.interference?.disturbed).length
const remeasured = run.records.filter((record) => (record.interference?.earlierAttempts.length ?? 0) > 0).length
const ratio = (/** @type {number} */ of, /** @type {number} */ to) => Number.isFinite(of / to) ? Math.sqrt(of / to).toFixed(2) : '-'
const finishedAt = new Date()

const lines = [
  `\`dyno run\` of ${String(values.suts).split(',').join(', ')} × ${scenarios.join(', ')}, ${rounds} rounds of ` +
    `${values.duration} s per cell with the ${run.records[0]?.load.engine ?? values.engine} engine, ` +
    `${startedAt.toISOString().slice(11, 16)}–${finishedAt.toISOString().slice(11, 16)} UTC: each round's scenarios shuffled, ` +
    'every SUT of a scenario back to back in a shuffled order (a block), ' +
    `one launch of each SUT serving its round; ${ok.length} results ok, ${disturbed} still marked disturbed, ` +
    `${remeasured} measured again. The hypervisor stole ${mean(steals).toFixed(1)} % of the measured cpus on average over the cells, ` +
    `at most ${max(steals).toFixed(0)} % in one. Spreads as sds of ln between rounds (each SUT around its own mean) and within a ` +
    'block (a model of SUT + block, as the rank groups judge a pair), and the share of the variance the block takes out.',
  '',
  '| scenario | ln req/s | within a block | taken out | ln µs of cpu per request | within a block | taken out |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((row) => `| ${row.scenario} | ${cell(row.rate)} | ${cell(row.cost)} |`),
  `| pooled | ${cell({ between: pooled('rate', 'between'), within: pooled('rate', 'within') })} | ` +
    `${cell({ between: pooled('cost', 'between'), within: pooled('cost', 'within') })} |`,
  '',
  `The cost's sd against the rate's: ${ratio(pooled('cost', 'between'), pooled('rate', 'between'))} between rounds, ` +
    `${ratio(pooled('cost', 'within'), pooled('rate', 'within'))} within a block. Run: \`${run.index.runId}\`.`
]
process.stdout.write(`${lines.join('\n')}\n`)
if (!values['no-block']) writeMeasuredBlock({ script: import.meta.url, lines })
