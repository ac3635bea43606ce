// @ts-check
// Where the spread of a default run's figures comes from on this machine: blocks of time (the minute a cell runs in), fresh launches of
// the SUT within a block, and 1-second rounds within a launch, measured as a balanced nested design and split into variance components
// by Kalibera and Jones' method (src/judging/stats/variance-components.js). Each block runs every SUT's launches interleaved
// (A B C A B C …), each launch on a fresh SUT with a warm-up before its rounds, every response checked by the native engine. It prints,
// per SUT and pooled, the sd of ln req/s at each level; per SUT, the spread of its launches in ln req/s and in ln µs of its cpu per
// request (read over the same measured phase, steal and other processes excluded), as they are and with each block's common level
// taken out (a model of SUT + block), and the cost at one cpu speed (the speed probe's reading of the same phase divided out,
// judging/speed-adjustment.js), with the most the hypervisor stole in a launch; how much of the minute's drift is common to
// every SUT (and so cancels in the ratios an interleaved run compares); and, for the default plan's budget per cell, the launches and
// rounds that make a cell narrowest beside the default profile's, with the ratio each can tell apart.
//
//   node harness/bench/noise-decomposition.js [--suts node-http,fastify,express,go-gin] [--scenario json] [--blocks 4] [--launches 3]
//     [--rounds 5] [--warmup 1] [--connections 100] [--budget 600] [--cells 192] [--sut-cpu 0] [--generator-cpu 1] [--no-block]
//   --budget, --cells: the default plan's time and cells (24 SUTs × 8 scenarios), which give the budget per cell
import { parseArgs } from 'node:util'
import { mean, shuffle } from 'simple-statistics'
import { LOAD_PROFILES } from '@dyno/scenarios'
import { loadTimesText } from '../src/measures/load-settings.js'
import { engineNamed } from '../src/load/engines/index.js'
import { runLoadedPhase } from '../src/load/loaded-phase.js'
import { scenarioLoadPlan } from '../src/load/load-plan.js'
import { runEnv } from '../src/platform/env/run-env.js'
import { createRunId } from '../src/records/run-id.js'
import { benchSuts, scenarioNamed } from './support/bench-counts.js'
import { onFreshLaunch } from './support/fresh-launch.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { startSpeedProbe } from '../src/platform/resources/speed-probe/speed-probe.js'
import { MIN_PROBE_CHUNKS } from '../src/judging/speed-adjustment.js'
import { bestPlan, cellVariance, separableRatio, varianceComponents } from '../src/judging/stats/variance-components.js'

const { values } = parseArgs({
  options: {
    suts: { type: 'string', default: 'node-http,fastify,express,go-gin' },
    scenario: { type: 'string', default: 'json' },
    blocks: { type: 'string', default: '4' },
    launches: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '100' },
    budget: { type: 'string', default: '600' },
    cells: { type: 'string', default: '192' },
    'sut-cpu': { type: 'string', default: '0' },
    'generator-cpu': { type: 'string', default: '1' },
    'no-block': { type: 'boolean', default: false }
  }
})
const counts = {
  blocks: Number(values.blocks),
  launches: Number(values.launches),
  rounds: Number(values.rounds),
  connections: Number(values.connections),
  budget: Number(values.budget),
  cells: Number(values.cells)
}
for (const [name, value] of Object.entries(counts)) {
  if (!(Number.isInteger(value) && value >= 2 && value <= 100_000)) throw new Error(`--${name} must be a whole number from 2, got ${value}`)
}
const warmupSec = Number(values.warmup)
if (!(warmupSec >= 0 && warmupSec <= 60)) throw new Error(`--warmup must be a number of seconds from 0 to 60, got ${values.warmup}`)
const where = { sutCpu: Number(values['sut-cpu']), generatorCpu: Number(values['generator-cpu']) }
const scenario = scenarioNamed(String(values.scenario))
const suts = await benchSuts(String(values.suts).split(','))
const DEFAULT = LOAD_PROFILES.quick

const native = engineNamed('native')
const speedProbe = await startSpeedProbe({ cpus: [where.sutCpu], env: runEnv(createRunId()) })

/**
 * One fresh launch: its warm-up, then its rounds as 1-second windows of one measured phase, sampled as a cell's is; what other programs
 * and the hypervisor took of the cpus.
 * @param {import('../src/subjects/suts/resolve-subjects.js').Subject} sut
 * @returns {Promise<{ rounds: number[], lnCost: number, lnProbe: number, wallSec: number, othersPct: number, stealPct: number }>}
 *   rounds: ln req/s of each; lnCost: ln µs of the SUT's cpu per request over them; lnProbe: ln of the speed probe's reading of them
 */
async function launchOnce (sut) {
  const startedMs = performance.now()
  const launched = await onFreshLaunch(sut, where, async (port, running) => {
    const plan = scenarioLoadPlan({
      port, scenario, connections: counts.connections, pipelining: 1, warmupSec, durationSec: counts.rounds, windowMs: 1000
    })
    const { phases } = await runLoadedPhase({
      engine: native,
      engineSettings: {},
      plan,
      generatorCpus: [where.generatorCpu],
      loadHosts: null,
      env: runEnv(createRunId()),
      signal: new AbortController().signal,
      stopWhen: null,
      sampling: {
        sutPgid: running.pid, sutReadGroup: null, sutHere: true, sutCpus: [where.sutCpu], censusArgs: false, probes: null, speedProbe
      }
    })
    const measured = phases.measure
    if (!measured?.timeseries) throw new Error(`${sut.label}: the native engine measured no windows`)
    if (measured.errors + measured.unexpectedStatus + measured.mismatches > 0) {
      throw new Error(`${sut.label}: ${measured.errors} errors, ${measured.unexpectedStatus} wrong statuses, ` +
        `${measured.mismatches} wrong bodies`)
    }
    const costUs = measured.cpuCost?.cpuUsPerRequest ?? null
    if (!(costUs !== null && costUs > 0)) throw new Error(`${sut.label}: its cpu per request was not read`)
    const speed = measured.cpuCost?.speedProbe ?? null
    if (!speed || speed.chunks < MIN_PROBE_CHUNKS) throw new Error(`${sut.label}: the speed probe read ${speed?.chunks ?? 0} chunks`)
    const roles = measured.interference?.roles ?? {}
    return {
      rounds: measured.timeseries.slice(0, counts.rounds).map((window) => Math.log(window.requests / (window.durationMs / 1000))),
      lnCost: Math.log(costUs),
      lnProbe: Math.log(speed.cpuUsPerChunk),
      stealPct: Math.max(0, ...Object.values(roles).map((role) => role.stealPct ?? 0))
    }
  })
  const { rounds, lnCost, lnProbe, stealPct } = launched.result
  if (rounds.length !== counts.rounds) throw new Error(`${sut.label}: ${rounds.length} rounds of ${counts.rounds}`)
  return {
    rounds,
    lnCost,
    lnProbe,
    wallSec: (performance.now() - startedMs) / 1000,
    othersPct: Math.max(launched.othersOnSutCpuPct, launched.othersOnToolCpuPct),
    stealPct
  }
}

/** @type {Map<string, number[][][]>} data[block][launch][round] per SUT */
const data = new Map(suts.map((sut) => [sut.label, []]))
/** @type {Map<string, number[][]>} costs[block][launch] per SUT: ln µs of the SUT's cpu per request */
const costs = new Map(suts.map((sut) => [sut.label, []]))
/** @type {Map<string, number[][]>} the same, less ln of the speed probe's reading (at one cpu speed, up to a constant) */
const probedCosts = new Map(suts.map((sut) => [sut.label, []]))
/** @type {number[]} */
const overheadsSec = []
let mostOthersPct = 0
let mostStealPct = 0
for (let block = 0; block < counts.blocks; block++) {
  for (const sut of suts) {
    data.get(sut.label)?.push([])
    costs.get(sut.label)?.push([])
    probedCosts.get(sut.label)?.push([])
  }
  for (let launch = 0; launch < counts.launches; launch++) {
    for (const sut of shuffle(suts)) {
      const measured = await launchOnce(sut)
      data.get(sut.label)?.[block].push(measured.rounds)
      costs.get(sut.label)?.[block].push(measured.lnCost)
      probedCosts.get(sut.label)?.[block].push(measured.lnCost - measured.lnProbe)
      mostStealPct = Math.max(mostStealPct, measured.stealPct)
      overheadsSec.push(measured.wallSec - warmupSec - counts.rounds)
      mostOthersPct = Math.max(mostOthersPct, measured.othersPct)
      const perSec = Math.round(Math.exp(mean(measured.rounds))).toLocaleString('en-US')
      const others = Math.round(measured.othersPct)
      const costUs = Math.exp(measured.lnCost).toFixed(1)
      process.stdout.write(`block ${block + 1} launch ${launch + 1} ${sut.label}: ${perSec} req/s, ${costUs} µs of cpu per request ` +
        `(the probe's chunk ${Math.exp(measured.lnProbe).toFixed(0)} µs); others took ${others} %, the hypervisor ` +
        `${Math.round(measured.stealPct)} %\n`)
    }
  }
}

/** @param {number} cellVarianceOfLn @returns {string} how far apart, in %, two such cells must be for a 95 % interval to tell them */
const percentApart = (cellVarianceOfLn) => ((separableRatio(cellVarianceOfLn) - 1) * 100).toFixed(1)

/** @param {number} varianceOfLn @returns {string} the sd of ln req/s, which reads as a spread in % */
const sd = (varianceOfLn) => Math.sqrt(varianceOfLn).toFixed(3)

/**
 * The spread of each SUT's launches in one figure, as they are and in a model of SUT + block: each launch less its SUT's mean, then
 * less too its block's common level (the block's mean over every SUT's launches, less the grand mean), which every SUT measured in
 * that minute shares. A residual's sd divides by its degrees of freedom: the launches less the SUT's mean and its share of the blocks'.
 * @param {Map<string, number[][]>} figures ln of the figure, [block][launch] per SUT
 * @returns {Map<string, { alone: number, blocked: number }>} variances of ln
 */
function launchSpreads (figures) {
  const all = [...figures.values()]
  const grand = mean(all.flat(2))
  const blockLevel = all[0].map((_, block) => mean(all.flatMap((blocks) => blocks[block])) - grand)
  const variance = (/** @type {number[]} */ residuals, /** @type {number} */ df) => residuals.reduce((sum, r) => sum + r * r, 0) / df
  return new Map([...figures].map(([label, blocks]) => {
    const launches = blocks.flat()
    const own = mean(launches)
    const alone = launches.map((value) => value - own)
    const blocked = blocks.flatMap((values, block) => values.map((value) => value - own - blockLevel[block]))
    const df = launches.length - 1
    return [label, { alone: variance(alone, df), blocked: variance(blocked, df - (blocks.length - 1) / figures.size) }]
  }))
}

const rateSpreads = launchSpreads(new Map([...data].map(([label, blocks]) => [label, blocks.map((launches) => launches.map(mean))])))
const costSpreads = launchSpreads(costs)
const probedSpreads = launchSpreads(probedCosts)
/** @param {Map<string, { alone: number, blocked: number }>} spreads @param {'alone' | 'blocked'} kind */
const pooledSpread = (spreads, kind) => mean([...spreads.values()].map((spread) => spread[kind]))

const perSut = [...data].map(([label, measured]) => {
  // The same SUT's figures less each block's mean over every SUT: what is left of the minute is the part not common to them all.
  const blockMeans = measured.map((_, block) => mean([...data.values()].map((other) => mean(other[block].flat()))))
  const relative = measured.map((launches, block) => launches.map((rounds) => rounds.map((value) => value - blockMeans[block])))
  return { label, components: varianceComponents(measured), relativeBlock: varianceComponents(relative).block }
})
const pooled = {
  block: mean(perSut.map((row) => row.components.block)),
  launch: mean(perSut.map((row) => row.components.launch)),
  round: mean(perSut.map((row) => row.components.round))
}
const pooledRelativeBlock = mean(perSut.map((row) => row.relativeBlock))
const launchOverheadSec = mean(overheadsSec)
const budgetPerCellSec = counts.budget / counts.cells
const relativeComponents = { ...pooled, block: pooledRelativeBlock }
const defaultPlan = { launches: DEFAULT.repeats, rounds: DEFAULT.durationSec }
const defaultVariance = cellVariance(relativeComponents, defaultPlan)
// A cell's round costs a launch's start, its warm-up on the cell's route and its own warm-up besides its measured second.
const cellWarmupSec = DEFAULT.launchWarmupSec + DEFAULT.warmupSec
const best = bestPlan(relativeComponents, { budgetSec: budgetPerCellSec, launchSec: launchOverheadSec + cellWarmupSec, roundSec: 1 })

const lines = [
  `${suts.map((sut) => sut.label).join(', ')} × ${scenario.name}, ${counts.connections} connections, the SUT on cpu ${where.sutCpu}, the ` +
    `native engine on cpu ${where.generatorCpu}. ${counts.blocks} blocks of time, each ${counts.launches} fresh launches of every SUT ` +
    `interleaved in a shuffled order, each launch ${warmupSec} s of warm-up then ${counts.rounds} rounds of 1 s; every response checked. ` +
    'Variance components of ln req/s by Kalibera and Jones\' method, shown as sds (0.030 is a spread of about 3 %). Block: the minute ' +
    'beyond its launches; relative block: the same on each SUT\'s figure less the block\'s mean over every SUT (the part of the ' +
    'minute\'s drift an interleaved run does not cancel). Others: the most any other program took of either cpu in a launch: ' +
    `${Math.round(mostOthersPct)} %.`,
  '',
  '| SUT | block | relative block | launch | round (1 s) |',
  '|---|---:|---:|---:|---:|',
  ...perSut.map(({ label, components, relativeBlock }) =>
    `| ${label} | ${sd(components.block)} | ${sd(relativeBlock)} | ${sd(components.launch)} | ${sd(components.round)} |`),
  `| pooled | ${sd(pooled.block)} | ${sd(pooledRelativeBlock)} | ${sd(pooled.launch)} | ${sd(pooled.round)} |`,
  '',
  'The same launches as cells (a launch\'s mean of its rounds), in both figures: µs of the SUT\'s cpu per request, read over the ' +
    'measured phase (steal and other processes are not in it), beside req/s; each as the launches spread, and with each block\'s ' +
    'common level taken out (a model of SUT + block); and the cost at one cpu speed, the speed probe\'s reading of the same phase ' +
    `divided out. The hypervisor stole at most ${Math.round(mostStealPct)} % of a measured cpu in a launch.`,
  '',
  '| SUT | ln req/s | ln req/s, block out | ln µs of cpu per request | ln µs per request, block out | at the probed speed | ' +
    'at the probed speed, block out |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...suts.map(({ label }) => {
    const [rate, cost, probed] = [rateSpreads, costSpreads, probedSpreads]
      .map((spreads) => /** @type {{ alone: number, blocked: number }} */ (spreads.get(label)))
    return `| ${label} | ${sd(rate.alone)} | ${sd(rate.blocked)} | ${sd(cost.alone)} | ${sd(cost.blocked)} | ${sd(probed.alone)} | ` +
      `${sd(probed.blocked)} |`
  }),
  `| pooled | ${sd(pooledSpread(rateSpreads, 'alone'))} | ${sd(pooledSpread(rateSpreads, 'blocked'))} | ` +
    `${sd(pooledSpread(costSpreads, 'alone'))} | ${sd(pooledSpread(costSpreads, 'blocked'))} | ` +
    `${sd(pooledSpread(probedSpreads, 'alone'))} | ${sd(pooledSpread(probedSpreads, 'blocked'))} |`,
  '',
  `A launch costs ${launchOverheadSec.toFixed(2)} s besides its warm-up and rounds (the SUT's start and stop, the engine's). The ` +
    `default plan spends ${counts.budget} s on ${counts.cells} cells: ${budgetPerCellSec.toFixed(2)} s each. Its profile ` +
    `(${defaultPlan.launches} launches of ${loadTimesText(DEFAULT)}) gives a cell an sd of ` +
    `${sd(defaultVariance)} and tells apart two cells ${percentApart(defaultVariance)} % apart (relative components, the SUTs ` +
    `interleaved). The narrowest plan for that budget: ${best.launches} launches of ${best.rounds} round${best.rounds === 1 ? '' : 's'} ` +
    `(${best.spentSec.toFixed(1)} s${best.spentSec > budgetPerCellSec ? ', over the budget: an interval needs 2 launches' : ''}), ` +
    `an sd of ${sd(best.variance)}, telling apart ${percentApart(best.variance)} %.`
]
await speedProbe.close()
process.stdout.write(`${lines.join('\n')}\n`)
if (!values['no-block']) writeMeasuredBlock({ script: import.meta.url, lines })
