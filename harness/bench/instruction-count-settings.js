// @ts-check
// Which runtime settings make a Node SUT's instruction count repeatable? Counts a SUT (default node-http json)
// REPEATS times with dyno's settings (V8 seeds fixed, --single-threaded, UV_THREADPOOL_SIZE=1) and as many times
// without any, alternating, and prints per arm the counts, their spread between launches (CV) and the spread of
// the windows within a launch; the ratio of the arms' medians says whether the settings change what is measured.
//   node harness/bench/instruction-count-settings.js [--repeats 4] [--sut node-http] [--scenario json]
import { parseArgs } from 'node:util'
import { median } from 'simple-statistics'
import { INSTRUCTION_COUNT_DEFAULTS, NODE_COUNT_SETTINGS } from '../src/instructions/count-instructions.js'
import { benchSuts, countOnce, cvPercent, scenarioNamed } from './support/bench-counts.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '4' },
    sut: { type: 'string', default: 'node-http' },
    scenario: { type: 'string', default: 'json' }
  }
})
const scenario = scenarioNamed(String(values.scenario))
const [sut] = await benchSuts([String(values.sut)])
const arms = { with: NODE_COUNT_SETTINGS, without: { nodeFlags: [], env: {} } }
/** @type {Record<string, { perRequest: number[], windowCvs: number[] }>} */
const figures = { with: { perRequest: [], windowCvs: [] }, without: { perRequest: [], windowCvs: [] } }
for (let repeat = 0; repeat < Number(values.repeats); repeat++) {
  /** @type {('with' | 'without')[]} */
  const order = repeat % 2 === 0 ? ['with', 'without'] : ['without', 'with']
  for (const arm of order) {
    const started = performance.now()
    const count = await countOnce({ sut, scenario, settings: arms[arm] })
    const windows = count.windows.map((window) => window.instructionsPerRequest)
    figures[arm].perRequest.push(count.instructionsPerRequest)
    figures[arm].windowCvs.push(cvPercent(windows))
    console.log(`${arm}: ${count.instructionsPerRequest} instructions/request, windows ${windows.join(' ')}, ` +
      `${count.checks.responses} responses checked, ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
}
const armLines = Object.entries(figures).map(([arm, { perRequest, windowCvs }]) =>
  `| ${arm} | ${perRequest.join(', ')} | ${median(perRequest)} | ${cvPercent(perRequest).toFixed(2)}% | ${median(windowCvs).toFixed(2)}% |`)
const ratio = `median with / without the settings: ${(median(figures.with.perRequest) / median(figures.without.perRequest)).toFixed(4)}`
console.log([...armLines, ratio].join('\n'))
const settingsText = [...NODE_COUNT_SETTINGS.nodeFlags, ...Object.entries(NODE_COUNT_SETTINGS.env).map(([name, value]) => `${name}=${value}`)].join(' ')
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `${sut.name} × ${scenario.name}, ${values.repeats} launches with dyno's settings (${settingsText}) and as many without, alternating; each a count of ` +
      `${INSTRUCTION_COUNT_DEFAULTS.windows} windows of ${INSTRUCTION_COUNT_DEFAULTS.windowRequests} requests after ` +
      `${INSTRUCTION_COUNT_DEFAULTS.warmupRequests} uncounted ones.`,
    '',
    '| settings | instructions per request, each launch | median | CV between launches | CV of the windows within a launch (median) |',
    '|---|---|---:|---:|---:|',
    ...armLines,
    '',
    `${ratio[0].toUpperCase()}${ratio.slice(1)}.`
  ]
})
