// @ts-check
// Where does autocannon's figure start to fall short? Against SUTs from slow to fast, each cell is measured
// alternately by autocannon and by the native engine (autocannon, native, native, autocannon, …), each run on
// a fresh SUT under the default pinning, and every autocannon run reports the share of its generator cpus it
// used. The ratio autocannon / native of each pair, against that share, shows the share above which
// autocannon measures itself: the generator-bound threshold (resources/resource-defaults.js) is set from it.
//
//   node harness/bench/generator-share-threshold.js [--pairs 3] [--suts express,koa,hono,fastify,node-http,uwebsockets]
//     [--connections 10,100] [--warmup 1] [--duration 3]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { findNativeEngine } from '../src/load/engines/native/native-binary.js'
import { resolvePinning } from '../src/platform/pinning/resolve-pinning.js'
import { DEFAULT_PIN } from '../src/platform/pinning/parse-pin.js'
import { runSuite } from '../src/suite/run-suite.js'
import { loadSettingsOf } from '../src/measures/index.js'
import { engineNamed } from '../src/load/engines/index.js'
import { parseOptions } from '../src/interface/cli/command-table.js'
import { discoverSuts } from '../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../src/subjects/suts/resolve-subjects.js'
import { DEFAULT_RUNTIME } from '../src/subjects/runtimes/runtime-targets.js'
import { writeMeasuredBlock } from './support/measured-block.js'
import { suiteOptions } from '../test/support/suite-options.js'

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    suts: { type: 'string', default: 'express,koa,hono,fastify,node-http,uwebsockets' },
    connections: { type: 'string', default: '10,100' },
    warmup: { type: 'string', default: '1' },
    duration: { type: 'string', default: '3' }
  }
})
if (!findNativeEngine().ok) throw new Error('the native engine is not built: pnpm install')
const scenario = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((candidate) => candidate.name === 'json'))
const names = String(values.suts).split(',')
const suts = await resolveSubjects(discoverSuts().filter((sut) => names.includes(sut.name)), { runtimes: [DEFAULT_RUNTIME], workers: 1 })
const pinning = resolvePinning(DEFAULT_PIN)
const out = mkdtempSync(join(tmpdir(), 'dyno-threshold-'))

/**
 * One run of one cell with one engine, autocannon's own figure kept (no re-measure).
 * @param {import('../src/subjects/suts/resolve-subjects.js').Subject} sut @param {number} connections @param {'autocannon' | 'native'}
 *   engine
 */
async function measure (sut, connections, engine) {
  const {
    records: [record]
  } = await runSuite(
    ...suiteOptions({
      suts: [sut],
      scenarios: [scenario],
      load: loadSettingsOf(
        parseOptions('run', { '--duration': String(values.duration), '--warmup': String(values.warmup) }).values,
        engineNamed(engine)
      ),
      connections: [connections],
      out,
      readyTimeoutSec: 15,
      pinning,
      recorded: { bench: 'generator-share-threshold' }
    })
  )
  if (record.status !== 'ok' || !record.summary) throw new Error(`${sut.name} ${engine}: ${record.status} ${record.reason}`)
  return record.summary
}

console.log(`json, SUT on cpu ${pinning.sutCpus?.join(',')}, generators on cpu ${pinning.generatorCpus?.join(',')}; ` +
  `${values.pairs} pairs per cell, order flipping each pair`)
console.log('sut | connections | autocannon share of its cpus (median) | SUT share of its cpus under autocannon (median) | ' +
  'autocannon / native req/s (median) | pairs (share:ratio)')
const rows = []
try {
  for (const sut of suts) {
    for (const connections of String(values.connections).split(',').map(Number)) {
      const shares = []
      const sutShares = []
      const ratios = []
      for (let pair = 0; pair < Number(values.pairs); pair++) {
        const order = /** @type {('autocannon' | 'native')[]} */ (pair % 2 === 0 ? ['autocannon', 'native'] : ['native', 'autocannon'])
        /** @type {Record<string, import('../src/load/load-plan.js').PhaseSummary>} */
        const result = {}
        for (const engine of order) result[engine] = await measure(sut, connections, engine)
        shares.push((result.autocannon.generatorCpuPct ?? 0) / 100 / (pinning.generatorCpus?.length ?? 1))
        const server = result.autocannon.resources?.targets.sut
        sutShares.push(server && server.durationSec > 0 ? server.cpuSec / server.durationSec / (pinning.sutCpus?.length ?? 1) : 0)
        ratios.push(result.autocannon.requestsPerSec.mean / result.native.requestsPerSec.mean)
      }
      const row = {
        sut: sut.name,
        connections,
        share: median(shares),
        sutShare: median(sutShares),
        ratio: median(ratios),
        pairs: ratios.map((ratio, index) => `${shares[index].toFixed(2)}:${ratio.toFixed(3)}`).join(' ')
      }
      rows.push(row)
      console.log(
        `${row.sut} | ${row.connections} | ${row.share.toFixed(2)} | ${row.sutShare.toFixed(2)} | ${row.ratio.toFixed(3)} | ${row.pairs}`
      )
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true })
}
const short = rows.filter((row) => row.ratio < 0.95).sort((a, b) => a.share - b.share)
const fine = rows.filter((row) => row.ratio >= 0.95).sort((a, b) => b.share - a.share)
const verdict =
  'lowest share of its cpu at which autocannon fell more than 5% short of the native engine: ' +
  `${short[0] ? `${short[0].share.toFixed(2)} (${short[0].sut}, ${short[0].connections} connections)` : 'none'}; ` +
  `highest share at which it kept within 5%: ${fine[0]
? `${fine[0].share.toFixed(2)} (${fine[0].sut}, ` +
    `${fine[0].connections} connections)`
: 'none'}`
console.log(verdict)
writeMeasuredBlock({
  script: import.meta.url,
  lines: [
    `json, SUT on cpu ${pinning.sutCpus?.join(',')}, generators on cpu ${pinning.generatorCpus?.join(',')}, ${values.warmup} s warm-up + ` +
      `${values.duration} s, ${values.pairs} pairs per cell alternating autocannon and the native engine (medians; each pair as ` +
      'share:ratio).',
    '',
    "| SUT | connections | autocannon's share of its cpu | the SUT's share of its cpu under autocannon | autocannon / native " +
      'req/s | pairs |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.sut} | ${row.connections} | ${row.share.toFixed(2)} | ${row.sutShare.toFixed(2)} | ${row.ratio.toFixed(3)} | ` +
          `${row.pairs} |`
    ),
    '',
    `${verdict[0].toUpperCase()}${verdict.slice(1)}.`
  ]
})
