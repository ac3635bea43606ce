// @ts-check
// Where a count steps along a framework's releases, and along Node releases: each pair of neighbouring counts on a line is
// compared as `dyno compare` compares two counts, against the pair's own window-to-window spread. Read from real counts
// (test/fixtures/timeline-data: express 4.20 to 5.1 on three Node lines, json), and from those counts with a change of known
// size put into one release's windows.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { timelineLines } from '../../src/history/timeline/change-points.js'
import { idOf } from '../../src/history/timeline/timeline-dataset.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data', 'records')
/** @returns {import('../../src/history/timeline/timeline-dataset.js').TimelineRecord[]} */
const fixtureRecords = () => readdirSync(FIXTURE).map((name) => JSON.parse(readFileSync(join(FIXTURE, name), 'utf8')))

/**
 * The records with one release's windows on one runtime scaled, as a change of that size in that release would make them.
 * @param {string} release @param {string} runtime @param {number} factor
 */
function withChange (release, runtime, factor) {
  return fixtureRecords().map((record) => {
    if (record.key.release !== release || record.key.runtime !== runtime || !record.measures) return record
    const measures = {
      ...record.measures,
      programPerWindow: record.measures.programPerWindow.map((value) => value === null ? null : value * factor),
      programInstructionsPerRequest: Number(record.measures.programInstructionsPerRequest) * factor
    }
    return { ...record, measures }
  })
}

describe('steps along releases', () => {
  it('finds the step from express 4 to 5 on node@20 and node@22, at the first 5.x release counted, and none within a major', () => {
    const lines = timelineLines(fixtureRecords()).filter((line) => line.along === 'releases')
    expect(lines.map((line) => `${line.key.runtime} ${line.points.map((point) => point.at).join(' ')}`)).toEqual(
      ['node@20', 'node@22', 'node@24'].map((runtime) => `${runtime} 4.20.0 4.21.2 4.22.3 5.0.1 5.1.0`))
    // On node@24 the counts had not settled after their 10,000 uncounted requests (each first window holds 5 times the
    // instructions of the last): a pair's spread that wide calls no step, and none is made up.
    expect(lines[2].steps).toEqual([])
    expect(lines.map((line) => line.points.filter((point) => !point.settled).length)).toEqual([0, 0, 5])
    for (const line of lines.slice(0, 2)) {
      expect(line.steps.map((step) => `${step.from} → ${step.to}`), String(line.key.runtime)).toEqual(['4.22.3 → 5.0.1'])
      const [step] = line.steps
      // Its size lies in its interval, and beyond the pair's threshold.
      expect(step.intervalPct[0]).toBeLessThanOrEqual(step.changePct)
      expect(step.intervalPct[1]).toBeGreaterThanOrEqual(step.changePct)
      expect(Math.abs(step.changePct)).toBeGreaterThan(step.thresholdPct)
    }
  })

  it('finds a 3% change put into one release, sized within its interval, and not a 0.2% one', () => {
    const three = timelineLines(withChange('4.21.2', 'node@22', 1.03)).find(
      (line) => line.along === 'releases' && line.key.runtime === 'node@22'
    )
    expect(three?.steps.map((step) => `${step.from} → ${step.to}`)).toEqual(['4.20.0 → 4.21.2', '4.21.2 → 4.22.3', '4.22.3 → 5.0.1'])
    const [up, down] = three?.steps ?? []
    expect(up.intervalPct[0]).toBeLessThan(up.changePct)
    expect(up.changePct).toBeGreaterThan(1.5)
    expect(down.changePct).toBeLessThan(-1.5)
    const small = timelineLines(withChange('4.21.2', 'node@22', 1.002)).find(
      (line) => line.along === 'releases' && line.key.runtime === 'node@22'
    )
    expect(small?.steps.map((step) => `${step.from} → ${step.to}`)).toEqual(['4.22.3 → 5.0.1'])
  })

  it('never draws counts of other settings on one line, and keeps a release that was not counted beside the line', () => {
    const records = fixtureRecords()
    const [one] = records.filter((record) => record.key.release === '4.21.2' && record.key.runtime === 'node@22')
    const otherKey = { ...one.key, counting: { ...one.key.counting, windowRequests: 1000, id: 'aaaaaaaaaaaa' } }
    const other = { ...one, key: otherKey, id: idOf(otherKey, 'ok') }
    const failedKey = { ...one.key, release: '4.19.2' }
    const failed = {
      ...one,
      key: failedKey,
      status: /** @type {const} */ ('failed'),
      measures: null,
      reason: 'did not install',
      id: idOf(failedKey, 'failed')
    }
    const lines = timelineLines([...records, other, failed]).filter((line) => line.along === 'releases' && line.key.runtime === 'node@22')
    expect(lines.map((line) => `${line.key.countingId} ${line.points.length}`).sort())
      .toEqual([`${one.key.counting.id} 5`, 'aaaaaaaaaaaa 1'].sort())
    expect(lines.find((line) => line.key.countingId === one.key.counting.id)?.notCounted.map((record) => record.key.release)).toEqual([
      '4.19.2'
    ])
  })
})

describe('steps along Node releases', () => {
  it('puts each release\'s counts in Node version order, one line per release', () => {
    const lines = timelineLines(fixtureRecords()).filter((line) => line.along === 'node')
    expect(lines.map((line) => `${line.key.release} ${line.points.length}`)).toEqual(
      ['4.20.0', '4.21.2', '4.22.3', '5.0.1', '5.1.0'].map((release) => `${release} 3`))
    for (const line of lines) {
      const majors = line.points.map((point) => Number(point.at.split('.')[0]))
      expect(majors).toEqual([20, 22, 24])
      for (const step of line.steps) expect(Math.abs(step.changePct)).toBeGreaterThan(step.thresholdPct)
    }
  })

  it('lists the releases in version order, 5.10.0 after 5.9.0, not as text sorts them', () => {
    const renamed = { '4.20.0': '5.9.0', '4.21.2': '5.10.0', '4.22.3': '5.11.0', '5.0.1': '5.2.0', '5.1.0': '5.1.0' }
    const records = fixtureRecords().map((record) => ({
      ...record, key: { ...record.key, release: renamed[/** @type {keyof typeof renamed} */ (record.key.release)] }
    }))
    const lines = timelineLines(records).filter((line) => line.along === 'node')
    expect(lines.map((line) => line.key.release)).toEqual(['5.1.0', '5.2.0', '5.9.0', '5.10.0', '5.11.0'])
  })
})
