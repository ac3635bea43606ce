// @ts-check
// A capacity plan split with --shard runs each part's cells (every launch of a SUT a cell of its own) and `dyno merge` puts the parts
// back together: every launch of every SUT once, the capacity table and the connections sweep over all the launches, as one run would
// have them. Capacity is a wall-clock figure: parts measured on machines that differ are refused unless --allow-mixed-machines says so.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { trackRuns } from '../../support/leftover-processes.js'
import { schemaErrors } from '../../support/result-schemas.js'
import { runCli } from '../../support/run-cli.js'
import { writtenRun } from '../../support/written-run.js'

const runs = trackRuns()
const work = mkdtempSync(join(tmpdir(), 'dyno-capacity-shards-'))
/** Two SUTs, two launches each, short steps up to a rate both hold here, one sweep level. */
const CAPACITY = ['capacity', '--frameworks', 'node-http,hono', '--scenarios', 'json', '--repeats', '2', '--seed', '11',
  '--warmup', '0.2', '--duration', '0.5', '--step', '0.2', '--max-rate', '400', '--slo', 'p50<=1s', '--sweep-connections', '8']

/** @param {string} shard @returns {Promise<string>} the part's run directory */
async function part (shard) {
  const out = join(work, `part-${shard.replace('/', '-of-')}`)
  const result = await runCli([...CAPACITY, '--shard', shard, '--out', out], { timeoutMs: 240_000 })
  expect(result.code, result.stderr).toBe(0)
  const [runId] = readdirSync(out)
  runs.add(runId)
  return join(out, runId)
}

describe('a capacity plan split in parts', () => {
  it('merges into one run with every launch, the capacity table and the sweep over all of them', async () => {
    const parts = [await part('1/2'), await part('2/2')]
    const launchesOf = (/** @type {string} */ runDir) => writtenRun(runDir).records
      .map((record) => `${record.sut.label} ${record.repeat.index}`)
    const [first, second] = parts.map(launchesOf)
    // Each part measured some of the four launches, and together every one of them once.
    expect(first.length).toBeGreaterThan(0)
    expect(second.length).toBeGreaterThan(0)
    expect([...first, ...second].sort()).toEqual(['hono 1', 'hono 2', 'node-http 1', 'node-http 2'])

    const merged = join(work, 'merged')
    const result = await runCli(['merge', ...parts, '--out', merged])
    expect(result.code, result.stderr).toBe(0)
    const { index, records } = writtenRun(merged)
    expect(schemaErrors('run-index', index)).toEqual([])
    expect(records.map((record) => `${record.sut.label} ${record.repeat.index}`).sort()).toEqual(first.concat(second).sort())
    for (const record of records) {
      expect(schemaErrors('result', record)).toEqual([])
      expect(record.status, record.reason).toBe('ok')
      expect(record.capacity.capacityPerSec).toBeGreaterThan(0)
      expect(record.capacity.connectionSweep).toEqual([expect.objectContaining({ connections: 8, cutShort: false })])
    }
    const markdown = readFileSync(join(merged, 'report.md'), 'utf8')
    // Both launches of each SUT in its row, as one run would rank them (a launch measured while the machine was busy says so).
    for (const sut of ['node-http', 'hono']) {
      expect(markdown).toMatch(new RegExp(`\\| ${sut} \\| [\\d,]+ \\| [\\d,]+–[\\d,]+ \\| [^|]+ \\| 2( \\(\\d disturbed\\))? \\|`))
    }
    expect(markdown).toContain('| framework | p99 at 8 | failures from |')

    // A part from a machine that differs: its capacities are not this machine's, refused unless asked for.
    const elsewhere = join(work, 'elsewhere')
    cpSync(parts[1], elsewhere, { recursive: true })
    const indexPath = join(elsewhere, 'run.json')
    const document = JSON.parse(readFileSync(indexPath, 'utf8'))
    document.env.cpu.model = 'Another CPU @ 9.99GHz'
    writeFileSync(indexPath, JSON.stringify(document, null, 2))
    const refused = await runCli(['merge', parts[0], elsewhere, '--out', join(work, 'refused')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('DYNO_ERR_MERGE_REFUSED')
    expect(refused.stderr).toContain('the parts were measured on machines that differ, so their capacities are not one machine\'s')
    expect(existsSync(join(work, 'refused'))).toBe(false)
    const allowed = await runCli(['merge', parts[0], elsewhere, '--out', join(work, 'allowed'), '--allow-mixed-machines'])
    expect(allowed.code, allowed.stderr).toBe(0)
  }, 600_000)

  afterAll(() => runs.expectNoneLeft(expect))
})
