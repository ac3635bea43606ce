// @ts-check
// Instruction counts of a plan split in two parts and merged compare A/A unchanged against the same plan counted whole: a part
// counts exactly what the whole run would. A count does not depend on the machine's speed, so parts of machines that differ
// merge without --allow-mixed-machines; counts made on different runtime versions are refused.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('valgrind')
const work = mkdtempSync(join(tmpdir(), 'dyno-count-shards-'))
// Eight counted windows: what the signed-rank test needs to call a row unchanged.
const COUNT = Object.freeze({
  frameworks: 'node-http',
  scenarios: 'plaintext,json',
  measure: 'instructions',
  countWarmupRequests: 3000,
  countWindowRequests: 300,
  countWindows: 8,
  countCache: false,
  seed: 7
})

/** @param {import('../support/dyno-run.js').RunFields} fields @param {string} name @returns {Promise<string>} the run directory */
async function count (fields, name) {
  const out = join(work, name)
  const result = await runCli(dynoRun({ ...COUNT, ...fields, out }), { timeoutMs: 300_000 })
  expect(result.code, result.stderr).toBe(0)
  const [runId] = readdirSync(out)
  runs.add(runId)
  return join(out, runId)
}

/** @param {string} path @param {(document: any) => void} change */
function editJson (path, change) {
  const document = JSON.parse(readFileSync(path, 'utf8'))
  change(document)
  writeFileSync(path, JSON.stringify(document, null, 2))
}

describe.skipIf(absent)(`instruction counts split in parts${skipNote(absent)}`, () => {
  it('merge into a run that compares A/A unchanged against the whole plan counted at once', async () => {
    const whole = await count({}, 'whole')
    const parts = [await count({ shard: '1/2' }, 'part-1'), await count({ shard: '2/2' }, 'part-2')]
    const merged = join(work, 'merged')
    const result = await runCli(['merge', ...parts, '--out', merged])
    expect(result.code, result.stderr).toBe(0)
    const index = writtenIndex(merged)
    expect(schemaErrors('run-index', index)).toEqual([])
    expect(index.results.map((/** @type {{ file: string }} */ entry) => entry.file)).toEqual([
      'node-http--plaintext.json',
      'node-http--json.json'
    ])
    expect(readFileSync(join(merged, 'report.md'), 'utf8')).toMatch(/Instructions per request/)

    const comparison = compareRuns([whole], [merged], { thresholdPercent: null, paired: false })
    expect(Object.fromEntries(comparison.rows.map((row) => [row.scenario, row.verdict]))).toEqual({
      plaintext: 'unchanged',
      json: 'unchanged'
    })

    // Another machine's cpu changes nothing a count depends on: merged as it is, and not marked mixed.
    const elsewhere = join(work, 'elsewhere')
    cpSync(parts[1], elsewhere, { recursive: true })
    editJson(join(elsewhere, 'run.json'), (document) => { document.env.cpu.model = 'Another CPU @ 9.99GHz'; document.env.cpu.cores = 64 })
    const acrossMachines = await runCli(['merge', parts[0], elsewhere, '--out', join(work, 'across-machines')])
    expect(acrossMachines.code, acrossMachines.stderr).toBe(0)
    expect(writtenIndex(join(work, 'across-machines')).merged.mixedMachines).toBeNull()

    // Another Node counts other code: refused, even with --allow-mixed-machines.
    const otherNode = join(work, 'other-node')
    cpSync(parts[1], otherNode, { recursive: true })
    const [file] = readdirSync(otherNode).filter((name) => name.startsWith('node-http--') && name.endsWith('.json'))
    editJson(join(otherNode, file), (record) => { record.sut.runtimeVersion = 'v99.0.0' })
    const refused = await runCli(['merge', parts[0], otherNode, '--out', join(work, 'refused'), '--allow-mixed-machines'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      'DYNO_ERR_MERGE_REFUSED: instruction counts merge across machines only when what a count depends on matches'
    )
    expect(refused.stderr).toMatch(/runtime node: v20\.\d+\.\d+ in part 1\/2 \([^)]+\), v99\.0\.0 in part 2\/2 \([^)]*other-node\)/)
    expect(existsSync(join(work, 'refused'))).toBe(false)
  }, 600_000)
})
