// @ts-check
// Do counts made at once agree with counts made one at a time? `dyno run --measure instructions` as a user runs it,
// alternately with --count-jobs 1 (one count at a time, on the SUT's cpu) and --count-jobs <cpus> (one count per cpu,
// unpinned), fresh counts each (--no-count-cache), then `dyno compare` of every pair of runs: each serial run with the
// next serial run is the A/A spread, each parallel run with the serial runs beside it is what running counts at once
// changes. Both must be unchanged, and the parallel changes within the A/A ones.
//   node harness/bench/parallel-counts-agree.js [--frameworks node-http,fastify,express] [--rounds 2]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { compareRuns } from '../src/reports/compare/compare-runs.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: { frameworks: { type: 'string', default: 'node-http,fastify,express' }, rounds: { type: 'string', default: '2' } }
})
const rounds = Number(values.rounds)
const jobs = availableParallelism()
const root = mkdtempSync(join(tmpdir(), 'dyno-parallel-counts-'))
const dyno = join(REPO_ROOT, 'harness', 'bin', 'dyno.js')

/**
 * One `dyno run` counting every framework's json, `countJobs` at a time; its run directory and wall time.
 * @param {string} name @param {number} countJobs
 */
function countRun (name, countJobs) {
  const out = join(root, name)
  const started = performance.now()
  execFileSync(
    process.execPath,
    [
      dyno,
      'run',
      '--measure',
      'instructions',
      '--frameworks',
      String(values.frameworks),
      '--scenarios',
      'json',
      '--count-jobs',
      String(countJobs),
      '--no-count-cache',
      '--out',
      out
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] }
  )
  const [runId] = readdirSync(out)
  return { name, dir: join(out, runId), seconds: (performance.now() - started) / 1000 }
}

/** @type {{ serial: ReturnType<typeof countRun>[], parallel: ReturnType<typeof countRun>[] }} */
const runs = { serial: [], parallel: [] }
const started = performance.now()
for (let round = 0; round < rounds; round++) {
  /** @type {('serial' | 'parallel')[]} */
  const order = round % 2 === 0 ? ['serial', 'parallel'] : ['parallel', 'serial']
  for (const kind of order) {
    const run = countRun(`${kind}-${round}`, kind === 'serial' ? 1 : jobs)
    runs[kind].push(run)
    console.log(`${run.name}: ${run.seconds.toFixed(0)} s`)
  }
}
// The serial runs compared with each other (A/A), every parallel run with every serial run.
const pairs = [
  ...runs.serial
    .slice(1)
    .map((run, index) => ({ kind: 'one at a time vs one at a time (A/A)', baseline: runs.serial[index], candidate: run })),
  ...runs.parallel.flatMap((run) =>
    runs.serial.map((serial) => ({ kind: `${jobs} at once vs one at a time`, baseline: serial, candidate: run }))
  )
]
/** @type {Map<string, { changes: number[], thresholds: number[], verdicts: string[] }>} */
const tallies = new Map()
for (const { kind, baseline, candidate } of pairs) {
  for (const row of compareRuns([baseline.dir], [candidate.dir], { thresholdPercent: null, paired: false }).rows) {
    const key = `${row.sut}\0${kind}`
    const tally = tallies.get(key) ?? { changes: [], thresholds: [], verdicts: [] }
    tally.changes.push(row.instructionsPerRequest?.changePercent ?? NaN)
    tally.thresholds.push(row.instructionsPerRequest?.threshold?.percent ?? NaN)
    tally.verdicts.push(String(row.verdict))
    tallies.set(key, tally)
    console.log(`${row.sut} ${candidate.name} vs ${baseline.name}: ${row.instructionsPerRequest?.changePercent}% ` +
      `(threshold ${row.instructionsPerRequest?.threshold?.percent}%, p=${row.instructionsPerRequest?.test?.pValue}): ${row.verdict}`)
  }
}
rmSync(root, { recursive: true, force: true })
const seconds = (/** @type {ReturnType<typeof countRun>[]} */ list) => list.map((run) => run.seconds.toFixed(0)).join(', ')
const range = (/** @type {number[]} */ list) => `${Math.min(...list).toFixed(2)} … ${Math.max(...list).toFixed(2)}%`
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `\`dyno run --measure instructions --frameworks ${values.frameworks} --scenarios json --no-count-cache\`, ${rounds} rounds ` +
      'alternating ' +
      `--count-jobs 1 and --count-jobs ${jobs}; every pair compared as \`dyno compare\` does. ` +
      `Wall time of a run: one at a time ${seconds(runs.serial)} s, ${jobs} at once ${seconds(runs.parallel)} s; ` +
      `${Math.round((performance.now() - started) / 1000)} s in all.`,
    '',
    '| SUT | compared | verdicts | changes | thresholds |',
    '|---|---|---|---:|---:|',
    ...[...tallies].map(([key, tally]) => {
      const [sut, kind] = key.split('\0')
      const verdicts = Object.entries(
        tally.verdicts.reduce(
          (acc, verdict) => ({ ...acc, [verdict]: (acc[verdict] ?? 0) + 1 }),
          /** @type {Record<string, number>} */ ({})
        )
      )
        .map(([verdict, count]) => `${verdict} ${count}/${tally.verdicts.length}`)
        .join(', ')
      return `| ${sut} | ${kind} | ${verdicts} | ${range(tally.changes)} | ${range(tally.thresholds)} |`
    })
  ]
})
