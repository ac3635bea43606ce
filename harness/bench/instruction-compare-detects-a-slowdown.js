// @ts-check
// The proof behind comparing instruction counts (`--measure instructions`), on this machine. TRIALS times for each
// target, fresh counts of its sides are made in rotating order: a baseline, the same code again, more work, and (the
// SUTs) one more short-lived 1 KiB object per request and nothing else; each trial compares the baseline with the others
// as `dyno compare` does (the verdict on the program's instructions, V8's collector counted apart; allocation with a
// verdict of its own; each row's threshold its own A/A spread):
//   - the cpu-work fixture, whose extra work is DYNO_FIXTURE_EXTRA_WORK_PERCENT (again, 3%, 1%), one count at a time;
//   - copies of node-http (again, 3%, 1%, alloc), fastify (again, 1%, alloc) and express (again, 3%, 1%, alloc) whose
//     json handler runs a xorshift loop first, its length calibrated to the percentage of the handler's measured program
//     instructions per request; one count per cpu at a time, as `dyno run --measure instructions` makes them.
// The bars: A/A unchanged 10/10 everywhere, 1% regressed 10/10 on node-http and fastify, 3% regressed 10/10 and 1% at
// least 8/10 on express, the allocation-only copy regressed on allocation 10/10.
// Then the cpu-work fixture with 60% more work, counted and timed (wall clock, alternating A B A B), to set the
// instruction ratio beside the req/s ratio.
// Usage: node harness/bench/instruction-compare-detects-a-slowdown.js [--trials 10] [--wall-clock-rounds 3] [--fixture-trials 10]
//   [--targets node-http,fastify,express] [--count-windows N] [--count-requests N] (the count's, when not dyno's defaults)
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { compareRuns } from '../src/reports/compare/compare-runs.js'
import { INSTRUCTION_COUNT_DEFAULTS } from '../src/measures/instructions/counts/count-instructions.js'
import { PACKAGES_DIR } from '../src/platform/paths.js'
import { runSuite } from '../src/suite/run-suite.js'
import { loadSettingsOf } from '../src/measures/index.js'
import { nativeEngine } from '../src/load/engines/native/native-descriptor.js'
import { parseOptions } from '../src/interface/cli/command-table.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { loadSut } from '../src/subjects/suts/discover-suts.js'
import { mapLimit } from '../src/platform/util/map-limit.js'
import { suiteOptions } from '../test/support/suite-options.js'

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    trials: { type: 'string', default: '10' },
    'wall-clock-rounds': { type: 'string', default: '3' },
    'fixture-trials': { type: 'string' },
    targets: { type: 'string', default: 'node-http,fastify,express' },
    'count-windows': { type: 'string' },
    'count-requests': { type: 'string' }
  }
})
// The older form, `TRIALS [WALL_CLOCK_ROUNDS] [FIXTURE_TRIALS]`, as the measured block of an earlier run names it.
const [trialsGiven = args.trials, roundsGiven = args['wall-clock-rounds'], fixtureGiven = args['fixture-trials']] = positionals
const trials = Number(trialsGiven)
const wallClockRounds = Number(roundsGiven)
const fixtureTrials = Number(fixtureGiven ?? trialsGiven)
const targets = args.targets.split(',')
const json = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((scenario) => scenario.name === 'json'))
/** `dyno run` options of each kind of measurement (typed, as on the command line). */
const FIXTURE_COUNT = { '--measure': 'instructions', '--count-warmup': '300', '--count-requests': '50', '--count-windows': '6' }
/** @type {Record<string, string>} */
const HANDLER_COUNT = {
  '--measure': 'instructions',
  ...(args['count-windows'] ? { '--count-windows': args['count-windows'] } : {}),
  ...(args['count-requests'] ? { '--count-requests': args['count-requests'] } : {})
}
/** Iterations of the first calibration copy of a handler: an estimate of what one step costs. */
const CALIBRATION_ITERATIONS = 2000
/**
 * The second calibration copy: a loop this share of the handler's instructions, closer to the sizes measured (a loop of a few
 * dozen steps need not cost per step what one of thousands does), counted CALIBRATION_LAUNCHES times beside as many baselines.
 */
const REFINE_AT_PERCENT = 5
const CALIBRATION_LAUNCHES = 2
/** Counts made at once: one per cpu, as `dyno run --measure instructions` makes them. */
const COUNT_JOBS = availableParallelism()

/**
 * @typedef {{ name: string, sut: import('../src/subjects/suts/discover-suts.js').SutDescriptor, env?: Record<string, string> }} Side
 */

/**
 * One `dyno run` of one side, in its own directory.
 * @param {Side} side @param {string} out @param {Record<string, string>} typed `dyno run` options
 * @returns {Promise<{ runDir: string, record: import('../src/records/result-record.js').ResultRecord }>}
 */
async function runSide (side, out, typed) {
  Object.assign(process.env, side.env ?? {})
  try {
    const outcome = await runSuite(...suiteOptions({
      suts: [side.sut],
      scenarios: [json],
      load: loadSettingsOf(parseOptions('run', { '--duration': '3', '--warmup': '1', ...typed }).values, nativeEngine),
      out,
      readyTimeoutSec: 30,
      recorded: { bench: 'instruction-compare-detects-a-slowdown', side: side.name }
    }))
    const [record] = outcome.records
    if (record.status !== 'ok') throw new Error(`${side.name}: ${record.status}: ${record.reason}`)
    return { runDir: outcome.runDir, record }
  } finally {
    for (const name of Object.keys(side.env ?? {})) delete process.env[name]
  }
}

/**
 * Where each target's json handler gets its injected slowdown: the line of its app.js, and what it becomes. express's json
 * route comes from the shared Express-API module, so its copy puts a handler of its own on /json in front of it (in every
 * copy, the baseline's too, which runs the loop zero times).
 */
const INJECTIONS = {
  'node-http': {
    find: "router.add('GET', '/json', (req, res) => sendJson(res, 200, helloMessage()))",
    replace: "router.add('GET', '/json', (req, res) => { extraWork(); sendJson(res, 200, helloMessage()) })"
  },
  fastify: {
    find: "app.get('/json', async () => helloMessage())",
    replace: "app.get('/json', async () => { extraWork(); return helloMessage() })"
  },
  express: {
    find: 'return addContractRoutes(express(), { jsonBody: express.json(), data })',
    replace: "const app = express()\n  app.get('/json', (req, res, next) => { extraWork(); next() })\n" +
      '  return addContractRoutes(app, { jsonBody: express.json(), data })'
  }
}

/**
 * A copy of a SUT beside it (so that it resolves the same packages) whose json handler first runs `iterations` steps
 * of a xorshift loop, or, with `allocates`, allocates one short-lived object of about 1 KiB and does nothing else with it.
 * @param {keyof typeof INJECTIONS} target @param {string} name @param {number} iterations @param {{ allocates?: boolean }} [extra]
 * @returns {Side}
 */
function handlerCopy (target, name, iterations, { allocates = false } = {}) {
  const original = join(PACKAGES_DIR, target)
  const dir = join(original, `.proof-${name}`)
  rmSync(dir, { recursive: true, force: true })
  cpSync(join(original, 'src'), join(dir, 'src'), { recursive: true })
  const manifest = JSON.parse(readFileSync(join(original, 'package.json'), 'utf8'))
  // The same package name: dyno compare matches the copies as one SUT.
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2))
  const appFile = join(dir, 'src', 'app.js')
  const app = readFileSync(appFile, 'utf8')
  const { find, replace } = INJECTIONS[target]
  if (!app.includes(find)) throw new Error(`${target}'s json handler is no longer \`${find}\`: update this script`)
  // An array of 126 holes: a 1,024-byte backing store (16 bytes of header, 126 slots of 8) and its 32-byte array, kept in a module
  // variable until the next request replaces it, so that the compiler cannot leave the allocation out.
  const allocation = `let lastAllocated = null
/** The injected allocation: one short-lived object of about 1 KiB per request. */
function extraWork () {
  lastAllocated = new Array(126)
}
`
  const extra = allocates
    ? allocation
    : `let extraState = 0x9E3779B9
/** The injected slowdown: ${iterations} steps of a loop the JIT cannot fold away. */
function extraWork () {
  for (let step = 0; step < ${iterations}; step++) {
    extraState ^= extraState << 13
    extraState ^= extraState >>> 17
    extraState ^= extraState << 5
  }
  if (extraState === 0) process.stderr.write('unreachable\\n')
}
`
  writeFileSync(appFile, `${app.replace(find, replace)}\n${extra}`)
  return { name, sut: loadSut(dir) }
}

/**
 * What a comparison's verdict is on, per request: the program's instructions (the collector's counted apart), or all of them where a
 * count has no split.
 * @param {import('../src/records/result-record.js').ResultRecord} record @returns {number}
 */
const verdictPerRequest = (record) => record.instructions?.programInstructionsPerRequest ?? record.instructions?.instructionsPerRequest ?? 0

/**
 * The program's instructions per request of one fresh count of each side, COUNT_JOBS at a time, in the order given.
 * @param {Side[]} sides @returns {Promise<number[]>}
 */
async function calibrationCounts (sides) {
  const scratch = mkdtempSync(join(tmpdir(), 'dyno-instr-proof-calibration-'))
  try {
    return await mapLimit([...sides.entries()], COUNT_JOBS, async ([index, side]) =>
      verdictPerRequest((await runSide(side, join(scratch, `${index}-${side.name}`), HANDLER_COUNT)).record))
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The table rows of the block: one per target and side compared with its baseline. */
const blockRows = /** @type {string[]} */ ([])

/**
 * @param {import('../src/records/comparison-record.js').ComparisonRow} row @returns
 *   {import('../src/records/comparison-record.js').MetricRow | null}
 */
const verdictFigures = (row) => row[row.verdictMetric] ?? null
/** @param {import('../src/records/comparison-record.js').ComparisonRow} row */
const describe = (row) => `${row.verdictMetric} ${verdictFigures(row)?.changePercent}% [${verdictFigures(row)?.ci95Percent?.join(', ')}] ` +
  `p=${verdictFigures(row)?.test?.pValue} threshold ${verdictFigures(row)?.threshold?.percent}%: ${row.verdict}; allocation ` +
  `${row.allocatedBytesPerRequest?.changePercent ?? '-'}% threshold ${row.allocatedBytesPerRequest?.threshold?.percent ?? '-'}%: ` +
  `${row.allocatedBytesPerRequest?.verdict ?? 'none'}`

/**
 * TRIALS trials of one fresh count of every side each, in rotating order, `jobs` at a time, each compared with the baseline.
 * @param {string} target @param {Side[]} sides the baseline first @param {Record<string, string>} load @param {number} jobs
 * @param {number} [count] trials
 */
async function trialsOf (target, sides, load, jobs, count = trials) {
  /** @type {Record<string, { verdicts: string[], changes: number[], allocationVerdicts: string[] }>} */
  const tallies = Object.fromEntries(sides.slice(1).map((side) => [side.name, { verdicts: [], changes: [], allocationVerdicts: [] }]))
  const ratios = Object.fromEntries(sides.slice(1).map((side) => [side.name, /** @type {number[]} */ ([])]))
  const thresholdsOf = Object.fromEntries(sides.slice(1).map((side) => [side.name, /** @type {number[]} */ ([])]))
  for (let trial = 1; trial <= count; trial++) {
    const root = mkdtempSync(join(tmpdir(), `dyno-instr-proof-${target}-${trial}-`))
    /** @type {Record<string, { runDir: string, perRequest: number }>} */
    const counted = {}
    const order = sides.map((_, offset) => sides[(trial + offset) % sides.length])
    await mapLimit(order, jobs, async (side) => {
      const { runDir, record } = await runSide(side, join(root, side.name), load)
      counted[side.name] = { runDir, perRequest: verdictPerRequest(record) }
    })
    const lines = []
    for (const side of sides.slice(1)) {
      const [row] = compareRuns([counted[sides[0].name].runDir], [counted[side.name].runDir], {
        thresholdPercent: null,
        paired: false
      }).rows
      tallies[side.name].verdicts.push(String(row.verdict))
      tallies[side.name].changes.push(verdictFigures(row)?.changePercent ?? NaN)
      tallies[side.name].allocationVerdicts.push(String(row.allocatedBytesPerRequest?.verdict ?? 'none'))
      thresholdsOf[side.name].push(verdictFigures(row)?.threshold?.percent ?? NaN)
      ratios[side.name].push(counted[side.name].perRequest / counted[sides[0].name].perRequest)
      lines.push(`${side.name} ${describe(row)}`)
    }
    console.log(`${target} trial ${trial}: baseline ${counted[sides[0].name].perRequest} instructions/request; ${lines.join('; ')}`)
    rmSync(root, { recursive: true, force: true })
  }
  const tallyOf = (/** @type {string[]} */ verdicts) =>
    Object.entries(
      verdicts.reduce((acc, verdict) => ({ ...acc, [verdict]: (acc[verdict] ?? 0) + 1 }), /** @type {Record<string, number>} */ ({}))
    )
      .map(([verdict, count]) => `${verdict} ${count}/${verdicts.length}`)
      .join(', ')
  for (const [name, { verdicts, changes, allocationVerdicts }] of Object.entries(tallies)) {
    const tally = tallyOf(verdicts)
    const range = `${Math.min(...changes).toFixed(2)} … ${Math.max(...changes).toFixed(2)}%`
    console.log(`${target} ${name}: ${tally}; change median ${median(changes).toFixed(2)}% (range ${range}); ` +
      `measured instruction ratio median ${median(ratios[name]).toFixed(4)}`)
    const thresholds = thresholdsOf[name]
    const compared = name === 'again' ? 'the same code (A/A)' : name === 'alloc' ? 'one more 1 KiB object per request' : `${name} more work`
    blockRows.push(
      `| ${target} | ${compared} | ${tally} | ${median(changes).toFixed(2)}% | ${range} | ` +
        `${median(thresholds).toFixed(2)}% (${Math.min(...thresholds).toFixed(2)} … ${Math.max(...thresholds).toFixed(2)}) | ` +
          `${tallyOf(allocationVerdicts)} |`
    )
  }
}

const started = performance.now()
const fixture = loadSut(new URL('../test/fixtures/suts/cpu-work', import.meta.url).pathname)
const fixtureSide = (/** @type {string} */ name, /** @type {string} */ percent) => ({
  name,
  sut: fixture,
  env: { DYNO_FIXTURE_EXTRA_WORK_PERCENT: percent }
})
if (fixtureTrials > 0) {
  await trialsOf('cpu-work', [fixtureSide('baseline', '0'), fixtureSide('again', '0'), fixtureSide('3%', '3'), fixtureSide('1%', '1')],
    FIXTURE_COUNT, 1, fixtureTrials)
}

/**
 * What each SUT's trials compare with its baseline, the bars of the instructions work: A/A on all three, 1% on node-http and fastify, 3% on
 * express.
 */
const HANDLER_TARGETS = /** @type {const} */ ([['node-http', ['3%', '1%']], ['fastify', ['1%']], ['express', ['3%', '1%']]])
  .filter(([target]) => targets.includes(target))
const copies = /** @type {Side[]} */ ([])
const removeCopies = () => { for (const copy of copies) rmSync(copy.sut.dir, { recursive: true, force: true }) }
// Ctrl-C ends the script where it stands: the copies beside the SUTs go with it.
process.once('SIGINT', () => {
  removeCopies()
  process.exit(130)
})
try {
  for (const [target, slowdowns] of HANDLER_TARGETS) {
    const base = handlerCopy(target, 'baseline', 0)
    copies.push(base)
    const perRequestOf = (/** @type {Side[]} */ sides) => calibrationCounts(sides)
    const firstCopy = handlerCopy(target, 'calibration', CALIBRATION_ITERATIONS)
    copies.push(firstCopy)
    const [firstBase, firstCalibrated] = await perRequestOf([base, firstCopy])
    const roughPerIteration = (firstCalibrated - firstBase) / CALIBRATION_ITERATIONS
    const refineIterations = Math.round(firstBase * REFINE_AT_PERCENT / 100 / roughPerIteration)
    const refineCopy = handlerCopy(target, `calibration-${REFINE_AT_PERCENT}`, refineIterations)
    copies.push(refineCopy)
    const launches = Array.from({ length: CALIBRATION_LAUNCHES }, () => [base, refineCopy]).flat()
    const counts = await perRequestOf(launches)
    const basePerRequest = median(counts.filter((_, index) => index % 2 === 0))
    const perIteration = (median(counts.filter((_, index) => index % 2 === 1)) - basePerRequest) / refineIterations
    const iterationsFor = (/** @type {string} */ percent) => Math.round(basePerRequest * parseFloat(percent) / 100 / perIteration)
    console.log(
      `${target} json: ${basePerRequest} instructions/request; the loop costs ${roughPerIteration.toFixed(2)} per step over ` +
        `${CALIBRATION_ITERATIONS} steps, ${perIteration.toFixed(2)} over ${refineIterations} (${CALIBRATION_LAUNCHES} launches ` +
          'each side): ' +
        slowdowns.map((percent) => `${iterationsFor(percent)} steps for ${percent}`).join(', ')
    )
    const slower = slowdowns.map((percent) => ({
      ...handlerCopy(target, `slower-${parseFloat(percent)}`, iterationsFor(percent)),
      name: percent
    }))
    const again = { ...handlerCopy(target, 'again', 0), name: 'again' }
    const allocating = { ...handlerCopy(target, 'alloc', 0, { allocates: true }), name: 'alloc' }
    copies.push(again, ...slower, allocating)
    await trialsOf(target, [base, again, ...slower, allocating], HANDLER_COUNT, COUNT_JOBS)
  }
} finally {
  removeCopies()
}

// 60% more work: the instruction ratio beside the wall-clock ratio, each side measured alternately (skipped with --wall-clock-rounds 0,
// when the machine is not the script's alone).
const sixtyLine = wallClockRounds > 0 ? await instructionAndWallClockRatio() : null

async function instructionAndWallClockRatio () {
  const root = mkdtempSync(join(tmpdir(), 'dyno-instr-proof-60-'))
  const sixty = [fixtureSide('baseline', '0'), fixtureSide('60%', '60')]
  const instructionRatio = (await runSide(sixty[1], join(root, 'i60'), FIXTURE_COUNT)).record.instructions?.instructionsPerRequest ?? 0
  const instructionBase = (await runSide(sixty[0], join(root, 'i0'), FIXTURE_COUNT)).record.instructions?.instructionsPerRequest ?? 0
  /** @type {Record<string, number[]>} */
  const rates = { baseline: [], '60%': [] }
  for (let round = 0; round < wallClockRounds; round++) {
    for (const side of round % 2 === 0 ? sixty : [...sixty].reverse()) {
      rates[side.name].push((await runSide(side, join(root, `w-${side.name}-${round}`), {})).record.summary?.requestsPerSec.mean ?? 0)
    }
  }
  rmSync(root, { recursive: true, force: true })
  const slowerBy = (median(rates.baseline) / median(rates['60%']))
  const medians = `medians of ${wallClockRounds} alternating wall-clock runs: ${Math.round(median(rates.baseline))} → ` +
    `${Math.round(median(rates['60%']))}`
  return `cpu-work with 60% more work counted ${(instructionRatio / instructionBase).toFixed(3)}× the instructions ` +
    `(${instructionBase} → ${instructionRatio} per request) and ran ${slowerBy.toFixed(3)}× slower in req/s (${medians})`
}
if (sixtyLine) console.log(sixtyLine)
const elapsedSec = Math.round((performance.now() - started) / 1000)
const handlerWindows =
  `${HANDLER_COUNT['--count-windows'] ?? INSTRUCTION_COUNT_DEFAULTS.windows} windows of ` +
  `${HANDLER_COUNT['--count-requests'] ?? INSTRUCTION_COUNT_DEFAULTS.windowRequests} requests after ` +
    `${INSTRUCTION_COUNT_DEFAULTS.warmupRequests} uncounted`
console.log(`done in ${elapsedSec} s`)
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `${fixtureTrials} trials of the cpu-work fixture (one count at a time) and ${trials} of each SUT, each a fresh count of every side ` +
      'in rotating order (a baseline, the same code again, more work, one more 1 KiB object per request), each compared with ' +
        'the baseline ' +
      "window by window as `dyno compare` does: the verdict on the program's instructions (V8's collector counted apart), " +
        'allocation with ' +
      "a verdict of its own, each threshold the row's own A/A spread; the SUTs are copies of node-http, fastify and express whose json " +
      `handler runs a xorshift loop first, calibrated on their program instructions, counted ${COUNT_JOBS} at a time ` +
        `(${handlerWindows}). ` +
      `${elapsedSec} s in all.`,
    '',
    '| target | compared with the baseline | verdicts | change, median | change, range | threshold, median (range) | allocation verdicts |',
    '|---|---|---|---:|---:|---:|---|',
    ...blockRows,
    ...(sixtyLine ? ['', `${sixtyLine[0].toUpperCase()}${sixtyLine.slice(1)}.`] : [])
  ]
})
