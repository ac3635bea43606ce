// @ts-check
// Which runtime settings make a Node SUT's instruction count repeatable? Two comparisons, each REPEATS launches an arm,
// the arms alternating, one count per cpu at once (a count does not depend on what runs beside it):
//   - node-http json: dyno's settings (V8 seeds fixed, --single-threaded, --predictable-gc-schedule, UV_THREADPOOL_SIZE=1)
//     against none at all;
//   - express json: dyno's settings against the same without --predictable-gc-schedule (express allocates the most per
//     request, and a young generation that resizes itself moved its windows by up to 13%).
// Per arm: the counts, their spread between launches (CV), the spread of the windows within a launch (CV and range), and
// the ratio of the arms' medians, which says whether the settings change what is measured.
//   node harness/bench/instruction-count-settings.js [--repeats 4]
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { max, median, min } from 'simple-statistics'
import { INSTRUCTION_COUNT_DEFAULTS, NODE_COUNT_SETTINGS } from '../src/measures/instructions/counts/count-instructions.js'
import { mapLimit } from '../src/platform/util/map-limit.js'
import { benchSuts, countOnce, cvPercent, scenarioNamed } from './support/bench-counts.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({ options: { repeats: { type: 'string', default: '4' } } })
const repeats = Number(values.repeats)
const GC_SCHEDULE_FLAG = '--predictable-gc-schedule'

/** @param {import('../src/measures/instructions/counts/count-instructions.js').CountSettings} settings */
const describe = (settings) =>
  [...settings.nodeFlags, ...Object.entries(settings.env).map(([name, value]) => `${name}=${value}`)].join(' ') || 'none'

const COMPARISONS = [
  { sut: 'node-http', scenario: 'json', arms: { "dyno's": NODE_COUNT_SETTINGS, none: { nodeFlags: [], env: {} } } },
  {
    sut: 'express',
    scenario: 'json',
    arms: {
      "dyno's": NODE_COUNT_SETTINGS,
      [`without ${GC_SCHEDULE_FLAG}`]: {
        ...NODE_COUNT_SETTINGS,
        nodeFlags: NODE_COUNT_SETTINGS.nodeFlags.filter((flag) => flag !== GC_SCHEDULE_FLAG)
      }
    }
  }
]

const subjects = await benchSuts(COMPARISONS.map((comparison) => comparison.sut))
/** Every launch to make, the arms of a comparison alternating (which goes first swaps each repeat). */
const launches = COMPARISONS.flatMap((comparison, which) => Array.from({ length: repeats }, (_, repeat) => {
  const names = Object.keys(comparison.arms)
  return (repeat % 2 === 0 ? names : names.reverse()).map((arm) => ({ which, arm, repeat }))
}).flat())
const counts = await mapLimit(launches, availableParallelism(), async ({ which, arm }) => {
  const comparison = COMPARISONS[which]
  const started = performance.now()
  const count = await countOnce({ sut: subjects[which], scenario: scenarioNamed(comparison.scenario), settings: comparison.arms[arm] })
  const windows = count.windows.map((window) => window.instructionsPerRequest)
  console.log(`${comparison.sut} ${arm}: ${count.instructionsPerRequest} instructions/request, windows ${windows.join(' ')}, ` +
    `${count.checks.responses} responses checked, ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return {
    perRequest: count.instructionsPerRequest,
    windowCv: cvPercent(windows),
    windowRangePercent: (max(windows) / min(windows) - 1) * 100
  }
})

const lines = [
  `Each launch a count of ${INSTRUCTION_COUNT_DEFAULTS.windows} windows of ${INSTRUCTION_COUNT_DEFAULTS.windowRequests} requests after ` +
    `${INSTRUCTION_COUNT_DEFAULTS.warmupRequests} uncounted ones; ${repeats} launches an arm, alternating.`
]
for (const [which, comparison] of COMPARISONS.entries()) {
  const [first, second] = Object.keys(comparison.arms)
  const of = (/** @type {string} */ arm) => counts.filter((_, index) => launches[index].which === which && launches[index].arm === arm)
  const rows = Object.entries(comparison.arms).map(([arm, settings]) => {
    const measured = of(arm)
    const perRequest = measured.map((count) => count.perRequest)
    return (
      `| ${arm} (${describe(settings)}) | ${perRequest.join(', ')} | ${median(perRequest)} | ${cvPercent(perRequest).toFixed(2)}% | ` +
      `${median(measured.map((count) => count.windowCv)).toFixed(2)}% | ` +
        `${median(measured.map((count) => count.windowRangePercent)).toFixed(1)}% |`
    )
  })
  const ratio = median(of(first).map((count) => count.perRequest)) / median(of(second).map((count) => count.perRequest))
  const table = [
    '',
    `${comparison.sut} × ${comparison.scenario}:`,
    '',
    '| settings | instructions per request, each launch | median | CV between launches | CV of the windows within a launch (median) | ' +
      'largest window / smallest (median) |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
    '',
    `Median ${first} / ${second}: ${ratio.toFixed(4)}.`
  ]
  console.log(table.join('\n'))
  lines.push(...table)
}
writeMeasuredBlock({ script: import.meta.url, lines })
