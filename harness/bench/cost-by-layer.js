// @ts-check
// Where a request's instructions go, per framework: `dyno run --measure instructions` over the frameworks for one scenario, as a user
// runs it (counts come from the count cache where this dyno made them before), then each count's layers in the groups the report shows
// (src/measures/instructions/layer-groups.js): Node's HTTP server, the framework with its dependencies and the SUT's routes, the route's
// work, V8's collector and compilers, as instructions per request and shares. So "framework overhead" is a measured figure.
//
//   node harness/bench/cost-by-layer.js [--suts express,fastify,koa,hono,h3,node-http] [--scenario json] [--runtime node@20] [--write]
//   (--write: put the table into docs/measures.md, replacing its block)
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { LAYER_GROUPS, layerShares } from '../src/measures/instructions/layer-groups.js'
import { formatInteger } from '../src/platform/text/format.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { readRun } from '../src/records/read-run.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: {
    suts: { type: 'string', default: 'express,fastify,koa,hono,h3,node-http' },
    scenario: { type: 'string', default: 'json' },
    runtime: { type: 'string' },
    write: { type: 'boolean', default: false }
  }
})

const out = mkdtempSync(join(tmpdir(), 'dyno-cost-by-layer-'))
const argv = ['harness/bin/dyno.js', 'run', '--measure', 'instructions', '--frameworks', String(values.suts), '--scenarios',
  String(values.scenario), ...(values.runtime ? ['--runtime', values.runtime] : []), '--out', out]
const child = spawnSync(process.execPath, argv, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
const runDir = /^results: (.+)$/m.exec(child.stdout ?? '')?.[1]
if (!runDir) throw new Error(`dyno run wrote no run (exit ${child.status}):\n${child.stdout}`)

const rows = readRun(runDir).records
  .filter((record) => record.status === 'ok')
  .map((record) => ({ record, shares: layerShares(record) }))
  .filter((row) => row.shares !== null)
  .sort((a, b) => (a.record.instructions?.instructionsPerRequest ?? 0) - (b.record.instructions?.instructionsPerRequest ?? 0))
if (rows.length === 0) throw new Error(`no count with layers in ${runDir}`)

const lines = [
  `| framework | instructions/req | ${LAYER_GROUPS.map((group) => group.label).join(' | ')} |`,
  `|---|---:|${LAYER_GROUPS.map(() => '---:').join('|')}|`,
  ...rows.map(({ record, shares }) => `| ${record.sut.label} ${record.sut.frameworkVersion ?? ''} | ` +
    `${formatInteger(record.instructions?.instructionsPerRequest ?? null)} | ` +
    `${(shares ?? []).map(({ share, perRequest }) => `${(share * 100).toFixed(1)}% (${formatInteger(Math.round(perRequest))})`)
      .join(' | ')} |`),
  '',
  `Scenario ${values.scenario}, ${rows[0].record.sut.runtime} ${rows[0].record.sut.runtimeVersion ?? ''}; each JavaScript function ` +
    'with the native code it ran charged to it; the event loop with the server.'
]
process.stdout.write(lines.join('\n') + '\n')
if (values.write) writeMeasuredBlock({ script: import.meta.url, lines, file: join(REPO_ROOT, 'docs', 'measures.md') })
