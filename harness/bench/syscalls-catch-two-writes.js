// @ts-check
// The proof behind the system-call verdicts: node-http (the json-in-two-writes fixture) counted TRIALS times as three sides (as it is,
// the same again, and with each response's head flushed on its own: two writes a response instead of one), each count fresh with a
// count's defaults and its system calls; each trial compares the first with the others by instructions and by system calls. Then
// the same two codes by wall clock, in ROUNDS alternating rounds, compared paired.
// Usage: node harness/bench/syscalls-catch-two-writes.js [trials=10] [rounds=6]
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { parseOptions } from '../src/interface/cli/command-table.js'
import { compareRuns } from '../src/reports/compare/compare-runs.js'
import { loadSettingsOf } from '../src/measures/index.js'
import { nativeEngine } from '../src/load/engines/native/native-descriptor.js'
import { runSuite } from '../src/suite/run-suite.js'
import { loadSut } from '../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../src/subjects/suts/resolve-subjects.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { suiteOptions } from '../test/support/suite-options.js'

const [trials = 10, rounds = 6] = process.argv.slice(2).map(Number)
const [sut] = await resolveSubjects([loadSut(new URL('../test/fixtures/suts/json-in-two-writes', import.meta.url).pathname)],
  { runtimes: ['node'], workers: 1 })
const json = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((scenario) => scenario.name === 'json'))

/** @param {string} out @param {boolean} twoWrites @param {'instructions' | 'wall-clock'} measure */
async function runOnce (out, twoWrites, measure) {
  if (twoWrites) process.env.DYNO_FIXTURE_TWO_WRITES = '1'
  try {
    const values = parseOptions('run', { '--measure': measure, '--count-jobs': '1' }).values
    const outcome = await runSuite(...suiteOptions({
      suts: [sut],
      scenarios: [json],
      load: loadSettingsOf(values, nativeEngine),
      out,
      readyTimeoutSec: 30,
      recorded: { bench: 'syscalls-catch-two-writes', twoWrites }
    }))
    return outcome.records[0]
  } finally {
    delete process.env.DYNO_FIXTURE_TWO_WRITES
  }
}

/** @param {string[]} list @returns {string} e.g. `regressed 10/10` */
const tally = (list) => Object.entries(list.reduce((acc, verdict) => ({ ...acc, [verdict]: (acc[verdict] ?? 0) + 1 }),
  /** @type {Record<string, number>} */ ({}))).map(([verdict, count]) => `${verdict} ${count}/${list.length}`).join(', ')
/** @param {number[]} values */
const range = (values) => `${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)}%`

const started = performance.now()
/** @type {Record<string, string[]>} */
const verdicts = { aaWrites: [], aaReads: [], aaInstructions: [], splitWrites: [], splitReads: [], splitInstructions: [] }
/** @type {{ splitInstructions: number[], splitWrites: number[] }} */
const changes = { splitInstructions: [], splitWrites: [] }
for (let trial = 1; trial <= trials; trial++) {
  const root = mkdtempSync(join(tmpdir(), `dyno-syscalls-${trial}-`))
  const records = []
  for (const [name, twoWrites] of /** @type {[string, boolean][]} */ ([['base', false], ['again', false], ['split', true]])) {
    records.push(await runOnce(join(root, name), twoWrites, 'instructions'))
  }
  const aa = compareRuns([join(root, 'base')], [join(root, 'again')], { thresholdPercent: null, paired: false }).rows[0]
  const split = compareRuns([join(root, 'base')], [join(root, 'split')], { thresholdPercent: null, paired: false }).rows[0]
  verdicts.aaWrites.push(aa.writesPerRequest?.verdict ?? 'none')
  verdicts.aaReads.push(aa.readsPerRequest?.verdict ?? 'none')
  verdicts.aaInstructions.push(aa.verdict ?? aa.status)
  verdicts.splitWrites.push(split.writesPerRequest?.verdict ?? 'none')
  verdicts.splitReads.push(split.readsPerRequest?.verdict ?? 'none')
  verdicts.splitInstructions.push(split.verdict ?? split.status)
  changes.splitInstructions.push(split.instructionsPerRequest?.changePercent ?? 0)
  changes.splitWrites.push(split.writesPerRequest?.changePercent ?? 0)
  console.log(
    `trial ${trial}: writes/req ${records.map((record) => record.instructions?.syscalls?.perRequest.writes).join(' ')}, ` +
      `instructions/req ${records.map((record) => record.instructions?.instructionsPerRequest).join(' ')}; A/A ` +
        `${aa.verdict}/${aa.writesPerRequest?.verdict}, ` +
      `two writes: instructions ${split.instructionsPerRequest?.changePercent}% ${split.verdict}, writes ` +
        `${split.writesPerRequest?.changePercent}% ` +
      `${split.writesPerRequest?.verdict}`
  )
}

// Wall clock: the two codes alternating, round by round.
const wallRoot = mkdtempSync(join(tmpdir(), 'dyno-syscalls-wall-'))
for (let round = 0; round < rounds; round++) {
  const order = /** @type {[string, boolean][]} */ (
    round % 2 === 0
      ? [
          ['base', false],
          ['split', true]
        ]
      : [
          ['split', true],
          ['base', false]
        ]
  )
  for (const [name, twoWrites] of order) {
    const record = await runOnce(join(wallRoot, name), twoWrites, 'wall-clock')
    console.log(`round ${round + 1} ${name}: ${Math.round(record.summary?.requestsPerSec.mean ?? 0)} req/s`)
  }
}
const wall = compareRuns([join(wallRoot, 'base')], [join(wallRoot, 'split')], { thresholdPercent: null, paired: true }).rows[0]
const wallLine =
  `${wall.requestsPerSec?.baseline?.median} → ${wall.requestsPerSec?.candidate?.median} req/s, ${wall.requestsPerSec?.changePercent}% ` +
  `[${wall.requestsPerSec?.ci95Percent?.join(', ')}], p=${wall.requestsPerSec?.test?.pValue}, ${wall.verdict ?? wall.status}`
console.log(`wall clock: ${wallLine}`)
const elapsedSec = Math.round((performance.now() - started) / 1000)
console.log(`${elapsedSec} s`)
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `node-http (the json-in-two-writes fixture), json, ${trials} trials of three fresh counts with a count's defaults and their ` +
      'system calls ' +
      "(as it is, the same again, and each response's head flushed on its own), each trial comparing the first with the others; then " +
      `${rounds} alternating wall-clock rounds of the two codes (quick profile, native engine, 10 connections), compared paired; ` +
        `${elapsedSec} s in all.`,
    '',
    '| comparison | write system calls | read system calls | instructions per request |',
    '|---|---|---|---|',
    `| the same code (A/A) | ${tally(verdicts.aaWrites)} | ${tally(verdicts.aaReads)} | ${tally(verdicts.aaInstructions)} |`,
    `| two writes a response | ${tally(verdicts.splitWrites)} (${range(changes.splitWrites)}) | ${tally(verdicts.splitReads)} | ` +
      `${tally(verdicts.splitInstructions)} (${range(changes.splitInstructions)}) |`,
    '',
    `Wall clock, two writes a response against one: ${wallLine}.`
  ]
})
