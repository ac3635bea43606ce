// @ts-check
// How much load can each engine drive on this machine? `dyno calibrate` as a user runs it (node-http and uwebsockets,
// plaintext, 100 connections, the SUT on its cpu and every engine on the generator's), and from each engine's rate and
// the share of its cpus it used, its rate per generator cpu: what it would drive on a machine with more of them, for a
// SUT fast enough to take it.
//   node harness/bench/engine-capacity.js [--frameworks node-http,uwebsockets] [--connections 100] [--duration 5] [--warmup 2]
import { parseArgs } from 'node:util'
import { parseOptions } from '../src/interface/cli/command-table.js'
import { formatCalibration } from '../src/interface/commands/calibrate-command.js'
import { calibrationRows } from '../src/measures/calibrations/engine-choice/engine-calibration.js'
import { discoverSuts } from '../src/subjects/suts/discover-suts.js'
import { selectSuts } from '../src/subjects/suts/select.js'
import { resolvePinning } from '../src/platform/pinning/resolve-pinning.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: { frameworks: { type: 'string' }, connections: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' } }
})
const typed = Object.fromEntries(
  Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [`--${name}`, String(value)])
)
const options = parseOptions('calibrate', typed).values
const pinning = resolvePinning(options.pin, undefined, { sutCpus: options.sutCpus })
const rows = await calibrationRows({
  ...options, engineOptions: options.engineOptions ?? options, suts: selectSuts(discoverSuts(), options.frameworks), pinning
})
console.log(formatCalibration(rows))
const generatorCpus = pinning.generatorCpus?.length ?? 1
const integer = (/** @type {number | undefined} */ value) => value === undefined ? '-' : Math.round(value).toLocaleString('en-US')
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `\`dyno calibrate\`: plaintext, ${options.connections.join(', ')} connections, ${options.warmupSec} s warm-up + ` +
      `${options.durationSec} s per engine, ` +
      `SUT on cpu ${pinning.sutCpus?.join(',') ?? '(not pinned)'}, every engine on cpu ` +
        `${pinning.generatorCpus?.join(',') ?? '(not pinned)'}.`,
    '',
    '| SUT | engine | req/s | share of its generator cpus | generator-bound | req/s per generator cpu at full use | note |',
    '|---|---|---:|---:|---|---:|---|',
    ...rows.map((row) => {
      const rate = row.summary?.requestsPerSec.mean
      const perCpu = rate !== undefined && row.generatorSharePct ? rate / (row.generatorSharePct / 100) / generatorCpus : undefined
      const bound = row.generatorBound === null ? '-' : row.generatorBound ? 'yes' : 'no'
      return `| ${row.sut} | ${row.label} | ${integer(rate)} | ${row.generatorSharePct ?? '-'}% | ${bound} | ${integer(perCpu)} | ` +
        `${row.error ?? ''} |`
    })
  ]
})
