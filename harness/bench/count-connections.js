// @ts-check
// How many connections should a count send its requests over? Counts each SUT (default node-http, fastify, express
// json) LAUNCHES times over one connection and as many over four, alternating, two counts at once. For each arm it
// prints the counts, their spread between launches, the spread of the windows within a launch, and the figure a
// comparison lives on: how far apart the windows of two launches of the same code are, window by window (the robust
// spread of the log ratios of consecutive launches' windows, in percent: what sets a row's threshold).
//   node harness/bench/count-connections.js [--launches 3] [--suts node-http,fastify,express] [--scenario json]
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { median, medianAbsoluteDeviation } from 'simple-statistics'
import { INSTRUCTION_COUNT_DEFAULTS } from '../src/measures/instructions/counts/count-instructions.js'
import { mapLimit } from '../src/platform/util/map-limit.js'
import { benchSuts, countOnce, cvPercent, scenarioNamed } from './support/bench-counts.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: {
    launches: { type: 'string', default: '3' },
    suts: { type: 'string', default: 'node-http,fastify,express' },
    scenario: { type: 'string', default: 'json' }
  }
})
const launches = Number(values.launches)
const scenario = scenarioNamed(String(values.scenario))
const suts = await benchSuts(String(values.suts).split(','))
const ARMS = [1, 4]
const started = performance.now()

/** Every count of the plan: per SUT, the arms alternate which goes first. */
const plan = suts.flatMap((sut) => Array.from({ length: launches }, (_, launch) =>
  (launch % 2 === 0 ? ARMS : [...ARMS].reverse()).map((connections) => ({ sut, connections, launch }))).flat())
const counts = await mapLimit(plan, availableParallelism(), async ({ sut, connections, launch }) => {
  const count = await countOnce({ sut, scenario, concurrency: connections })
  const windows = count.windows.map((window) => window.instructionsPerRequest)
  console.log(
    `${sut.name} ${connections} connection(s) launch ${launch + 1}: ${count.instructionsPerRequest}/request, windows ${windows.join(' ')}`
  )
  return { sut: sut.name, connections, launch, perRequest: count.instructionsPerRequest, windows }
})

/** The robust spread (1.4826 × MAD) of the log ratios of two launches' windows, in percent. */
const pairSpreadPercent = (/** @type {number[]} */ a, /** @type {number[]} */ b) =>
  1.4826 * medianAbsoluteDeviation(a.map((value, index) => Math.log(b[index] / value))) * 100
const lines = []
for (const sut of suts) {
  for (const connections of ARMS) {
    const arm = counts.filter((count) => count.sut === sut.name && count.connections === connections).sort((x, y) => x.launch - y.launch)
    const perRequest = arm.map((count) => count.perRequest)
    const pairSpreads = arm.slice(1).map((count, index) => pairSpreadPercent(arm[index].windows, count.windows))
    lines.push(`| ${sut.name} | ${connections} | ${perRequest.join(', ')} | ${cvPercent(perRequest).toFixed(2)}% | ` +
      `${median(arm.map((count) => cvPercent(count.windows))).toFixed(2)}% | ${median(pairSpreads).toFixed(2)}% |`)
  }
}
const table = [
  '| SUT | connections | instructions per request, each launch | CV between launches | CV of the windows within a launch (median) | ' +
    'spread of the window-by-window ratios of two launches (median) |',
  '|---|---:|---|---:|---:|---:|',
  ...lines
]
console.log(table.join('\n'))
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `${scenario.name}, ${launches} launches of each SUT over one connection and as many over four, alternating, ` +
      `${availableParallelism()} counts at ` +
      `once; each a count of ${INSTRUCTION_COUNT_DEFAULTS.windows} windows of ` +
        `${INSTRUCTION_COUNT_DEFAULTS.windowRequests} requests after ` +
      `${INSTRUCTION_COUNT_DEFAULTS.warmupRequests} uncounted ones. The last column is what a comparison of two counts of the same code ` +
      'sees: 1.4826 × the median absolute deviation of the logarithms of their windows\' ratios. ' +
        `${((performance.now() - started) / 1000).toFixed(0)} s in all.`,
    '',
    ...table
  ]
})
