// @ts-check
// Counts made under the fixed warm-up (a set number of uncounted requests) and under the settling rule (windows until the last ones
// settle) differ by what the runtime still compiled: they are lines of their own, never one line whose change of rule would read as a
// step. A record whose counting id is not the hash of its settings is refused when read back, and records of two rules that claim one
// line are refused before anything is drawn. Read from the committed counts (test/fixtures/timeline-data, the fixed rule).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { timelineLines } from '../../src/history/timeline/change-points.js'
import { countingIdOf, idOf, openDataset } from '../../src/history/timeline/timeline-dataset.js'
import { WARMUP_RULE } from '../../src/measures/instructions/counts/count-settle.js'
import { runCli } from '../support/run-cli.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data')
const work = mkdtempSync(join(tmpdir(), 'dyno-two-rules-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** @returns {import('../../src/history/timeline/timeline-dataset.js').TimelineRecord[]} */
const fixtureRecords = () => readdirSync(join(FIXTURE, 'records'))
  .map((name) => JSON.parse(readFileSync(join(FIXTURE, 'records', name), 'utf8')))

/**
 * A record of the fixture as the settling rule would have keyed it: its rule and bound in its counting settings, its ids made anew.
 * @param {import('../../src/history/timeline/timeline-dataset.js').TimelineRecord} record @param {{ keepCountingId?: boolean }} [options]
 */
function underSettlingRule (record, { keepCountingId = false } = {}) {
  const { id, warmupRequests, ...rest } = record.key.counting
  const settings = { warmupRequests, warmupRule: WARMUP_RULE, warmupBoundRequests: 40_000, ...rest }
  const counting = { ...settings, id: keepCountingId ? id : countingIdOf(settings) }
  const key = { ...record.key, counting }
  return { ...record, key, id: idOf(key, record.status) }
}

describe('two warm-up rules', () => {
  it('are two lines, each with its own points, when each record is keyed by its rule', () => {
    const records = fixtureRecords()
    const isMoved = (/** @type {typeof records[number]} */ record) =>
      record.key.runtime === 'node@24' && record.key.release.startsWith('5.')
    const moved = records.filter(isMoved).map((record) => underSettlingRule(record))
    const lines = timelineLines([...records.filter((record) => !isMoved(record)), ...moved])
      .filter((line) => line.along === 'releases' && line.key.runtime === 'node@24')
    expect(lines.map((line) => line.points.map((point) => point.at).join(' '))).toEqual(
      expect.arrayContaining(['4.20.0 4.21.2 4.22.3', '5.0.1 5.1.0']))
    expect(lines).toHaveLength(2)
  })

  it('on one line are refused, naming both rules and a record of each', () => {
    const records = fixtureRecords()
    const one = records.find((record) => record.key.runtime === 'node@24' && record.key.release === '5.1.0')
    const edited = underSettlingRule(/** @type {any} */ (one), { keepCountingId: true })
    const rest = records.filter((record) => record !== one)
    expect(() => timelineLines([...rest, edited]))
      .toThrow(/warm-up rules (fixed and settle-1|settle-1 and fixed) \(records [0-9a-f]{24}, [0-9a-f]{24}\)/)
  })

  it('on one line are refused when read back: the edited record\'s counting id is named as not its settings\' hash', async () => {
    const dir = join(work, 'data')
    cpSync(FIXTURE, dir, { recursive: true })
    const one = fixtureRecords().find((record) => record.key.runtime === 'node@24' && record.key.release === '5.1.0')
    const edited = underSettlingRule(/** @type {any} */ (one), { keepCountingId: true })
    writeFileSync(join(dir, 'records', `${edited.id}.json`), JSON.stringify(edited))
    expect(() => openDataset(dir)).toThrow(new RegExp(`${edited.id}\\.json is not a record this dyno reads: key\\.counting\\.id is ` +
      `${edited.key.counting.id}, not the hash of the counting settings`))
    const site = join(work, 'site')
    const result = await runCli(['site', dir, '--out', site])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_DATASET|not the hash of the counting settings/)
    expect(readdirSync(work)).not.toContain('site')
  })
})
