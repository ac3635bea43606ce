// @ts-check
// The proof behind `dyno compare`'s verdicts, on this machine: TRIALS times, the cpu-work fixture runs in
// ROUNDS rotating rounds as three sides (a baseline, the same code again, and 10% more work per
// request); each trial compares baseline with baseline (A/A: must never be called regressed or
// improved) and baseline with the slowdown (must be called regressed, significant, every time), both
// as independent samples (Mann–Whitney U) and paired round by round (Wilcoxon signed-rank, --paired).
// Usage: node harness/bench/compare-detects-a-slowdown.js [trials=5] [rounds=6] [durationSec=3] [warmupSec=2]
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { compareRuns } from '../src/reports/compare/compare-runs.js'
import { runSuite } from '../src/suite/run-suite.js'
import { loadSettingsOf } from '../src/measures/index.js'
import { nativeEngine } from '../src/load/engines/native/native-descriptor.js'
import { parseOptions } from '../src/interface/cli/command-table.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { loadSut } from '../src/subjects/suts/discover-suts.js'
import { suiteOptions } from '../test/support/suite-options.js'

const [trials = 5, rounds = 6, durationSec = 3, warmupSec = 2] = process.argv.slice(2).map(Number)
const EXTRA_WORK_PERCENT = '10'
const sut = loadSut(new URL('../test/fixtures/suts/cpu-work', import.meta.url).pathname)
const json = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((scenario) => scenario.name === 'json'))
const sides = [{ name: 'baseline', extra: null }, { name: 'again', extra: null }, { name: 'slower', extra: EXTRA_WORK_PERCENT }]

/** @param {string} out @param {string | null} extra */
async function runOnce (out, extra) {
  if (extra) process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT = extra
  try {
    const outcome = await runSuite(...suiteOptions({
      suts: [sut],
      scenarios: [json],
      load: loadSettingsOf(parseOptions('run', { '--duration': String(durationSec), '--warmup': String(warmupSec) }).values, nativeEngine),
      out,
      recorded: { bench: 'compare-detects-a-slowdown', extraWorkPercent: extra }
    }))
    return outcome.records[0].summary?.requestsPerSec.mean ?? 0
  } finally {
    delete process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT
  }
}

/** @param {import('../src/records/comparison-record.js').ComparisonRow} row */
const describe = (row) => `${row.requestsPerSec?.changePercent}% [${row.requestsPerSec?.ci95Percent?.join(', ')}], ` +
  `p=${row.requestsPerSec?.test?.pValue ?? '-'}, ${row.verdict}`

const started = performance.now()
/** @type {Record<'aa' | 'slowdown' | 'pairedAa' | 'pairedSlowdown', string[]>} */
const verdicts = { aa: [], slowdown: [], pairedAa: [], pairedSlowdown: [] }
for (let trial = 1; trial <= trials; trial++) {
  const root = mkdtempSync(join(tmpdir(), `dyno-proof-${trial}-`))
  const rates = Object.fromEntries(sides.map((side) => [side.name, /** @type {number[]} */ ([])]))
  for (let round = 0; round < rounds; round++) {
    for (let offset = 0; offset < sides.length; offset++) {
      const side = sides[(round + offset) % sides.length]
      rates[side.name].push(Math.round(await runOnce(join(root, side.name), side.extra)))
    }
  }
  console.log(
    `trial ${trial}: req/s baseline ${rates.baseline.join(' ')} | again ${rates.again.join(' ')} | slower ${rates.slower.join(' ')}`
  )
  for (const paired of [false, true]) {
    const aa = compareRuns([join(root, 'baseline')], [join(root, 'again')], { thresholdPercent: null, paired }).rows[0]
    const slowdown = compareRuns([join(root, 'baseline')], [join(root, 'slower')], { thresholdPercent: null, paired }).rows[0]
    verdicts[paired ? 'pairedAa' : 'aa'].push(aa.verdict ?? aa.status)
    verdicts[paired ? 'pairedSlowdown' : 'slowdown'].push(slowdown.verdict ?? slowdown.status)
    console.log(`  ${paired ? 'paired  ' : 'unpaired'} A/A        ${describe(aa)}`)
    console.log(`  ${paired ? 'paired  ' : 'unpaired'} +${EXTRA_WORK_PERCENT}% work  ${describe(slowdown)}`)
  }
}
/** @param {string[]} list verdicts @returns {string} e.g. `unchanged 5/5` */
const tally = (list) => Object.entries(list.reduce((acc, verdict) => ({ ...acc, [verdict]: (acc[verdict] ?? 0) + 1 }),
  /** @type {Record<string, number>} */ ({}))).map(([verdict, count]) => `${verdict} ${count}/${list.length}`).join(', ')
console.log(`unpaired: A/A ${verdicts.aa.join(', ')}; slowdown ${verdicts.slowdown.join(', ')}`)
console.log(`paired:   A/A ${verdicts.pairedAa.join(', ')}; slowdown ${verdicts.pairedSlowdown.join(', ')}`)
const elapsedSec = Math.round((performance.now() - started) / 1000)
console.log(`${elapsedSec} s`)
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `The cpu-work fixture, ${trials} trials of ${rounds} rotating rounds of three sides (a baseline, the same code again, ` +
      `${EXTRA_WORK_PERCENT}% ` +
      `more work per request), ${warmupSec} s warm-up + ${durationSec} s each, ${elapsedSec} s in all; each trial compares the ` +
        'baseline with ' +
      'the others by wall clock.',
    '',
    '| test | the same code (A/A) | +' + EXTRA_WORK_PERCENT + '% work |',
    '|---|---|---|',
    `| Mann–Whitney U (independent samples) | ${tally(verdicts.aa)} | ${tally(verdicts.slowdown)} |`,
    `| Wilcoxon signed-rank (\`--paired\`, round by round) | ${tally(verdicts.pairedAa)} | ${tally(verdicts.pairedSlowdown)} |`
  ]
})
