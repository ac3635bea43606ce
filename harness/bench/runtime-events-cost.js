// @ts-check
// What does collecting the runtime's events cost the SUT? fastify and express × json, `dyno run` with `--runtime-events off` and `on`
// alternating (off on, then on off, …), PAIRS pairs, each run a fresh launch of each SUT, the native engine, 2 s warm-up + 5 s. Per SUT
// and pair: the measured phase's req/s on and off and their ratio, and the same for requests per cpu-second of the SUT (the cost
// shows there even when the rate swings). The noise it is read against: how far two `off` runs of the same SUT differ (the spread of
// the off runs' req/s, as a coefficient of variation). The figures go into docs/measuring.md.
//   node harness/bench/runtime-events-cost.js [--pairs 3] [--duration 5] [--warmup 2]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { mean, median, sampleStandardDeviation } from 'simple-statistics'
import { REPO_ROOT } from '../src/platform/paths.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: { pairs: { type: 'string', default: '3' }, duration: { type: 'string', default: '5' }, warmup: { type: 'string', default: '2' } }
})
const pairs = Number(values.pairs)
const SUTS = ['fastify', 'express']
const out = mkdtempSync(join(tmpdir(), 'dyno-runtime-events-cost-'))

/**
 * One `dyno run` of both SUTs with the events on or off.
 * @param {'on' | 'off'} events
 * @returns {Record<string, { requestsPerSec: number, requestsPerCpuSec: number | null }>}
 */
function runOnce (events) {
  const dir = join(out, `${events}-${Date.now()}`)
  execFileSync(
    process.execPath,
    [
      join(REPO_ROOT, 'harness/bin/dyno.js'),
      'run',
      '--frameworks',
      SUTS.join(','),
      '--scenarios',
      'json',
      '--runtime-events',
      events,
      '--engine',
      'native',
      '--duration',
      values.duration ?? '5',
      '--warmup',
      values.warmup ?? '2',
      '--repeats',
      '1',
      '--out',
      dir
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] }
  )
  const runDir = join(dir, readdirSync(dir)[0])
  return Object.fromEntries(SUTS.map((sut) => {
    const record = JSON.parse(readFileSync(join(runDir, `${sut}--json.json`), 'utf8'))
    if (record.status !== 'ok') throw new Error(`${sut} × json was ${record.status}: ${record.reason}`)
    return [sut, { requestsPerSec: record.summary.requestsPerSec.mean, requestsPerCpuSec: record.summary.requestsPerCpuSec ?? null }]
  }))
}

/** @type {{ pair: number, off: ReturnType<typeof runOnce>, on: ReturnType<typeof runOnce> }[]} */
const measured = []
try {
  for (let pair = 1; pair <= pairs; pair++) {
    const order = /** @type {('on' | 'off')[]} */ (pair % 2 === 1 ? ['off', 'on'] : ['on', 'off'])
    /** @type {Partial<Record<'on' | 'off', ReturnType<typeof runOnce>>>} */
    const sides = {}
    for (const events of order) sides[events] = runOnce(events)
    const { off, on } = /** @type {{ off: ReturnType<typeof runOnce>, on: ReturnType<typeof runOnce> }} */ (sides)
    measured.push({ pair, off, on })
    for (const sut of SUTS) {
      console.log(
        `pair ${pair} (${order.join(' then ')}) ${sut}: off ${Math.round(off[sut].requestsPerSec)} req/s, on ` +
          `${Math.round(on[sut].requestsPerSec)} ` +
          `(${(on[sut].requestsPerSec / off[sut].requestsPerSec).toFixed(3)})`
      )
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true })
}

const fmt = (/** @type {number} */ value) => Math.round(value).toLocaleString('en-US')
const lines = [
  `fastify and express × json, the native engine, ${values.warmup} s warm-up + ${values.duration} s, each run a fresh launch of ` +
    'both SUTs; ' +
    `${pairs} pairs alternating \`--runtime-events off\` and \`on\` (the first of a pair off, the next pair on first).`,
  '',
  '| SUT | pair | req/s off | req/s on | on/off | req per cpu-s off | req per cpu-s on | on/off |',
  '|---|---|---|---|---|---|---|---|'
]
for (const sut of SUTS) {
  for (const { pair, off, on } of measured) {
    const [offCpu, onCpu] = [off[sut].requestsPerCpuSec, on[sut].requestsPerCpuSec]
    const cpuRatio = offCpu && onCpu ? (onCpu / offCpu).toFixed(3) : '-'
    const rateRatio = (on[sut].requestsPerSec / off[sut].requestsPerSec).toFixed(3)
    lines.push(`| ${sut} | ${pair} | ${fmt(off[sut].requestsPerSec)} | ${fmt(on[sut].requestsPerSec)} | ${rateRatio} | ` +
      `${offCpu === null ? '-' : fmt(offCpu)} | ${onCpu === null ? '-' : fmt(onCpu)} | ${cpuRatio} |`)
  }
}
lines.push('')
for (const sut of SUTS) {
  const ratios = measured.map(({ off, on }) => on[sut].requestsPerSec / off[sut].requestsPerSec)
  const offs = measured.map(({ off }) => off[sut].requestsPerSec)
  const noisePct = offs.length > 1 ? 100 * sampleStandardDeviation(offs) / mean(offs) : null
  const costPct = 100 * (1 - median(ratios))
  lines.push(`- **${sut}**: median on/off ${median(ratios).toFixed(3)} (a cost of ${costPct.toFixed(1)}%); ` +
    `the off runs' own spread (CV) ${noisePct === null ? '-' : `${noisePct.toFixed(1)}%`}: ` +
    `${noisePct !== null && Math.abs(costPct) <= noisePct ? 'within the noise' : 'beyond the noise'}.`)
}
writeMeasuredBlock({ script: import.meta.url, lines })
