// @ts-check
// The time machine's data: the releases of express in a range, from the registry, each installed into its own copy of the SUT
// and counted; a release that does not serve the contract is a record with its reason, never a gap; a second run with one more
// release counts only that one (the count cache) and appends only its record; what is refused is refused before anything is
// counted, and nothing is appended.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDataset } from '../../src/history/timeline/timeline-dataset.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('registry', 'valgrind')
const work = mkdtempSync(join(tmpdir(), 'dyno-timeline-'))
const data = join(work, 'data')
/** Small counts: what is tested is which releases are counted and kept, not their figures. */
const COUNT = [
  '--count-warmup',
  '200',
  // The earlier rule's fixed warm-up: counts that wait to settle take minutes under valgrind.
  '--count-warmup-bound',
  '200',
  '--count-windows',
  '3',
  '--count-requests',
  '50',
  '--cache-dir',
  join(work, 'cache'),
  '--runtime',
  'node',
  '--scenarios',
  'json'
]

/** @param {string[]} args @returns {ReturnType<typeof runCli>} */
const timeline = (args) => runCli(['timeline', ...args, ...COUNT, '--out', join(work, 'runs')], { timeoutMs: 600_000 })
/** @returns {string[]} every file of the data directory, as paths below it */
const filesOf = (/** @type {string} */ dir) => readdirSync(dir, { recursive: true }).map(String).sort()
/** @returns {any} the run a timeline made, its id registered; the newest when there are several */
const newestRun = () => {
  const [runId] = readdirSync(join(work, 'runs')).sort().reverse()
  runs.add(runId)
  return writtenRun(join(work, 'runs', runId))
}

describe.skipIf(absent)(`dyno timeline${skipNote(absent)}`, () => {
  it('counts each release of the range, and keeps a release that does not serve the contract as a record with its reason', async () => {
    const result = await timeline([data, '--frameworks', 'express@>=5.2.0 <=5.3.0,express@2.5.11'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('express@>=5.2.0 <=5.3.0: 2 releases (minor-tips): 5.2.1, 5.3.0')
    expect(result.stdout).toContain(`timeline: 3 records appended to ${data} (0 already held; 1 of the run's releases not counted`)
    newestRun()
    const records = [...openDataset(data).values()]
    expect(records.map((record) => `${record.key.release} ${record.status}`).sort()).toEqual(['2.5.11 failed', '5.2.1 ok', '5.3.0 ok'])
    for (const record of records) {
      expect(record.key).toMatchObject({ framework: 'express', sut: 'express', runtime: 'node', scenario: 'json' })
      expect(record.key.counting).toMatchObject({
        warmupRequests: 200,
        windowRequests: 50,
        windows: 3,
        countingCode: expect.stringMatching(/^[0-9a-f]{64}$/)
      })
      expect(Date.parse(String(record.publishedAt))).not.toBeNaN()
    }
    const failed = records.find((record) => record.status === 'failed')
    expect(failed?.measures).toBeNull()
    expect(failed?.reason).toMatch(/express is not a function/)
    for (const record of records.filter((candidate) => candidate.status === 'ok')) {
      expect(record.measures?.programPerWindow).toHaveLength(3)
      expect(record.measures?.instructionsPerRequest).toBeGreaterThan(10_000)
      // Every record of one run's settings is on one line.
      expect(record.key.counting.id).toBe(failed?.key.counting.id)
      // Its functions by layer, the list gzipped in functions/ under the record's id.
      expect(record.functions?.listFile).toBe(`${record.id}.json.gz`)
      expect(record.functions?.windowLayers).toHaveLength(3)
      expect(record.functions?.functions).toBeUndefined()
    }
    expect(failed?.functions).toBeUndefined()
    const counted = records.filter((record) => record.status === 'ok')
    expect(filesOf(join(data, 'functions'))).toEqual(counted.map((record) => `${record.id}.json.gz`).sort())
  }, 600_000)

  it('explains the change between two releases from their records, and says why a release not counted cannot be', async () => {
    const records = [...openDataset(data).values()]
    const idOf = (/** @type {string} */ release) => records.find((record) => record.key.release === release)?.id
    const path = (/** @type {string} */ release) => join(data, 'records', `${idOf(release)}.json`)
    const explained = await runCli(['explain', path('5.2.1'), path('5.3.0'), '--format', 'json'])
    expect(explained.code, explained.stderr).toBe(0)
    const [explanation] = JSON.parse(explained.stdout).explanations
    expect(explanation.baseline.label).toBe('express@5.2.1 on node × json')
    expect(explanation.candidate.label).toBe('express@5.3.0 on node × json')
    // The layers add up to the whole change, as each count's layers add up to its whole.
    expect(Math.abs(explanation.layersChange - explanation.change)).toBeLessThan(explanation.baseline.instructionsPerRequest * 0.002)
    const refused = await runCli(['explain', path('2.5.11'), path('5.3.0')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`DYNO_ERR_EXPLAIN_INPUT: baseline: express@2.5.11 on node × json (${path('2.5.11')}) was not counted`)
  }, 600_000)

  it('counts only the release it does not hold yet, and appends only its record', async () => {
    const before = filesOf(data)
    const contentBefore = before.map((file) => file.endsWith('.json') ? readFileSync(join(data, file), 'utf8') : null)
    const result = await timeline([data, '--frameworks', 'express@>=5.1.0 <=5.3.0,express@2.5.11'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('express@>=5.1.0 <=5.3.0: 2 of them counted on every runtime and scenario with these settings, ' +
      `held in ${data} and not counted again: 5.2.1, 5.3.0`)
    // A release held only as a failure is tried again: it may count now.
    expect(result.stdout).toContain(`timeline: 1 record appended to ${data} (1 already held;`)
    const { records } = newestRun()
    expect(records.map((record) => `${record.sut.label} ${record.status}`)).toEqual(['express@5.1.0 ok', 'express@2.5.11 failed'])
    const after = filesOf(data)
    // The record and its function list.
    expect(after.filter((file) => !before.includes(file))).toEqual([expect.stringMatching(/^functions\/[0-9a-f]{24}\.json\.gz$/),
      expect.stringMatching(/^records\/[0-9a-f]{24}\.json$/)])
    // Nothing held was rewritten.
    for (const [position, file] of before.entries()) {
      if (contentBefore[position] !== null) expect(readFileSync(join(data, file), 'utf8'), file).toBe(contentBefore[position])
    }
  }, 600_000)

  it('counts nothing and makes no run when the data directory holds every release asked for', async () => {
    const runsBefore = readdirSync(join(work, 'runs'))
    const result = await timeline([data, '--frameworks', 'express@>=5.1.0 <=5.3.0'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`timeline: nothing to count: ${data} holds every release asked for, on every runtime and scenario`)
    expect(readdirSync(join(work, 'runs'))).toEqual(runsBefore)
    // Other settings are another line: the same releases are counted again for it.
    const otherWindows = COUNT.map((arg, position) => (COUNT[position - 1] === '--count-windows' ? '4' : arg))
    const plan = await runCli(['timeline', data, '--frameworks', 'express@>=5.1.0 <=5.3.0', ...otherWindows, '--plan'], {
      timeoutMs: 120_000
    })
    expect(plan.code, plan.stderr).toBe(0)
    expect(JSON.parse(plan.stdout).cells).toBe(3)
  }, 600_000)

  it('appends a run made elsewhere, record for record, with timeline-add', async () => {
    const [first] = readdirSync(join(work, 'runs')).sort()
    const elsewhere = join(work, 'elsewhere')
    const result = await runCli(['timeline-add', elsewhere, join(work, 'runs', first)], { timeoutMs: 120_000 })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('3 records of')
    const ids = [...openDataset(elsewhere).keys()]
    expect(ids.every((id) => openDataset(data).has(id))).toBe(true)
  })

  it('refuses a range of no release, a directory of another layout and a record that does not parse, appending nothing', async () => {
    const before = filesOf(data)
    const none = await timeline([data, '--frameworks', 'express@>=99'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(
      'DYNO_ERR_UNKNOWN_VERSION: `express@>=99`: the range `>=99` matches no release; allowed: a range that matches one of'
    )

    const otherLayout = join(work, 'other-layout')
    cpSync(data, otherLayout, { recursive: true })
    writeFileSync(join(otherLayout, 'dataset.json'), JSON.stringify({ layout: 'dyno-timeline', layoutVersion: 2 }))
    const layout = await timeline([otherLayout, '--frameworks', 'express@>=5.2.0 <=5.3.0'])
    expect(layout.code).toBe(2)
    expect(layout.stderr).toContain(
      `DYNO_ERR_DATASET: ${join(otherLayout, 'dataset.json')} says layout "dyno-timeline" version 2; this dyno reads ` +
        'and appends to dyno-timeline version 1 only; nothing was appended'
    )

    const broken = join(work, 'broken')
    cpSync(data, broken, { recursive: true })
    const [victim] = readdirSync(join(broken, 'records'))
    writeFileSync(join(broken, 'records', victim), '{"recordVersion": 1, "id": ')
    const unreadable = await timeline([broken, '--frameworks', 'express@>=5.2.0 <=5.3.0'])
    expect(unreadable.code).toBe(2)
    expect(unreadable.stderr).toContain(`DYNO_ERR_DATASET: ${join(broken, 'records', victim)} does not parse as JSON`)

    const edited = join(work, 'edited')
    cpSync(data, edited, { recursive: true })
    const record = JSON.parse(readFileSync(join(edited, 'records', victim), 'utf8'))
    writeFileSync(join(edited, 'records', victim), JSON.stringify({ ...record, key: { ...record.key, release: '9.9.9' } }))
    const forged = await timeline([edited, '--frameworks', 'express@>=5.2.0 <=5.3.0'])
    expect(forged.code).toBe(2)
    expect(forged.stderr).toContain(`${join(edited, 'records', victim)}: its id is not the hash of its key`)
    expect(filesOf(data)).toEqual(before)
  })

  it('prints the plan of the releases chosen with --plan, and counts and appends nothing', async () => {
    const before = filesOf(data)
    const result = await runCli(['timeline', data, '--frameworks', 'express@>=4.18.0 <5', '--runtime', 'node@20,node@22', '--plan'], {
      timeoutMs: 120_000
    })
    expect(result.code, result.stderr).toBe(0)
    const plan = JSON.parse(result.stdout)
    expect(plan.cells).toBe(5 * 2)
    expect(result.stderr).toContain('express@>=4.18.0 <5: 5 releases (minor-tips): 4.18.3, 4.19.2, 4.20.0, 4.21.2, 4.22.3')
    expect(filesOf(data)).toEqual(before)
  })

  afterAll(() => runs.expectNoneLeft(expect))
})
