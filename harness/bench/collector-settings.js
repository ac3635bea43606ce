// @ts-check
// Which collector settings narrow the A/A spread of express's count, now that the collector is counted apart? express × json,
// REPEATS launches an arm, the arms alternating, one count per cpu at once:
//   - dyno's settings (the young generation fixed at 4 MB by --predictable-gc-schedule, heap growth fixed);
//   - a young generation fixed at 64 MB instead (--min-/--max-semi-space-size=64), so that a window of 750 requests holds
//     fewer scavenges, and no allocation-site pretenuring (what a scavenge promotes then depends less on history);
//   - dyno's settings with a full collection between windows is not an arm: it made V8 compile again (docs/measuring.md).
// Per arm and per figure (the program's instructions, the collector's, all of them, bytes allocated): each launch's value,
// the spread between launches (CV) and the spread of the windows within a launch (median CV).
//   node harness/bench/collector-settings.js [--repeats 3]
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { median } from 'simple-statistics'
import { INSTRUCTION_COUNT_DEFAULTS, NODE_COUNT_SETTINGS } from '../src/measures/instructions/counts/count-instructions.js'
import { mapLimit } from '../src/platform/util/map-limit.js'
import { benchSuts, countOnce, cvPercent, scenarioNamed } from './support/bench-counts.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({ options: { repeats: { type: 'string', default: '3' } } })
const repeats = Number(values.repeats)
const GC_SCHEDULE_FLAG = '--predictable-gc-schedule'
const LARGE_YOUNG_GENERATION = ['--min-semi-space-size=64', '--max-semi-space-size=64', '--no-allocation-site-pretenuring']

/** @type {Record<string, import('../src/measures/instructions/counts/count-instructions.js').CountSettings>} */
const ARMS = {
  "dyno's": NODE_COUNT_SETTINGS,
  '64 MB young generation, no pretenuring': {
    ...NODE_COUNT_SETTINGS,
    nodeFlags: [...NODE_COUNT_SETTINGS.nodeFlags.filter((flag) => flag !== GC_SCHEDULE_FLAG), ...LARGE_YOUNG_GENERATION]
  }
}
/** @type {Record<string, (window: import('../src/measures/instructions/counts/count-instructions.js').CountedWindow) => number | null>} */
const FIGURES = {
  program: (window) => window.programInstructionsPerRequest,
  collector: (window) => window.collector?.instructionsPerRequest ?? null,
  all: (window) => window.instructionsPerRequest,
  'bytes allocated': (window) => window.allocatedBytesPerRequest
}

const [express] = await benchSuts(['express'])
const json = scenarioNamed('json')
const launches = Array.from({ length: repeats }, (_, repeat) => {
  const names = Object.keys(ARMS)
  return repeat % 2 === 0 ? names : names.reverse()
}).flat()
const started = performance.now()
const counts = await mapLimit(launches, availableParallelism(), async (arm) => {
  const count = await countOnce({ sut: express, scenario: json, settings: ARMS[arm] })
  const collections = 'collections' in count.collector ? count.collector.collections : null
  console.log(`express ${arm}: program ${count.programInstructionsPerRequest}, all ${count.instructionsPerRequest}, ` +
    `allocated ${count.allocation.bytesPerRequest} bytes per request; collections ${JSON.stringify(collections)}`)
  return { arm, count }
})
const elapsedSec = Math.round((performance.now() - started) / 1000)

const rows = Object.keys(ARMS).flatMap((arm) => Object.entries(FIGURES).map(([figure, pick]) => {
  const ofArm = counts.filter((entry) => entry.arm === arm).map((entry) => entry.count)
  const perLaunch = ofArm.map((count) => {
    const values = count.windows.map(pick).filter((value) => value !== null)
    return { mean: values.reduce((sum, value) => sum + value, 0) / values.length, windowCv: cvPercent(values) }
  })
  return `| ${arm} | ${figure} | ${perLaunch.map((launch) => Math.round(launch.mean)).join(', ')} | ` +
    `${cvPercent(perLaunch.map((launch) => launch.mean)).toFixed(2)}% | ${median(perLaunch.map((launch) => launch.windowCv)).toFixed(2)}% |`
}))
const lines = [
  `express × json, ${repeats} launches an arm, alternating, ${availableParallelism()} counts at once; each a count of ` +
    `${INSTRUCTION_COUNT_DEFAULTS.windows} windows of ${INSTRUCTION_COUNT_DEFAULTS.windowRequests} requests after ` +
    `${INSTRUCTION_COUNT_DEFAULTS.warmupRequests} uncounted ones, with dyno's other settings. ${elapsedSec} s in all.`,
  '',
  '| settings | per request | each launch | CV between launches | CV of the windows within a launch (median) |',
  '|---|---|---|---:|---:|',
  ...rows
]
console.log(lines.join('\n'))
writeMeasuredBlock({ script: import.meta.url, lines })
