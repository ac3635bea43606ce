// @ts-check
// `dyno compare` says which cells warm up differently on the two sides (the classification of their series, or where the steady
// state starts) and, under a cell whose level changed beyond its spread, what the runtime did differently: its events per second of
// load, and the deoptimisations one side had and the other did not. Results written before dyno classified warm-up compare as before.
// The sides are copies of real runs (test/fixtures/warmup-compare), four to a side so that a level change can be tested, edited.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { warmupChange } from '../../src/reports/compare/warmup-change.js'
import { FOUR_REPEATS, runWithFigures } from '../support/compare-inputs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/warmup-compare/', import.meta.url))
/** fastify and express on json, 2 s warm-up and 5 s measured, runtime events collected: express deoptimised 9 times, fastify none. */
const EVENTS_ON = join(FIXTURES, 'events-on')
/** The same, runtime events not collected. */
const EVENTS_OFF = join(FIXTURES, 'events-off')
/** Each run's req/s is the recorded one times its factor: four runs a side, the fewest with which a change can be significant. */
const SPREAD = [1, 1.01, 0.99, 1.005]

/** A handler that deoptimises in the candidate only (the express SUT's json route, as V8 would name it). */
const HANDLER_DEOPT = {
  fn: 'jsonRoute /work/main/packages/express/src/app.js:12:27',
  position: '/work/main/packages/express/src/app.js:14:18',
  kind: 'deopt-eager',
  category: 'shape or type changed',
  reason: 'wrong map',
  count: 40,
  firstMs: 812.4
}
/** A deoptimisation the baseline's express runs have (recorded) and the candidate's do not. */
const TIMER_DEOPT = '_unrefTimer node:net:511:52'

/**
 * One side of a comparison: a directory of four copies of a committed run, each result's req/s scaled by its run's factor of
 * SPREAD and then edited. Every result written still passes the result schema.
 * @param {string} fixture EVENTS_ON or EVENTS_OFF
 * @param {(record: any, run: number) => void} [edit] run: 1 to 4
 * @returns {string} the side's directory
 */
function sideOf (fixture, edit) {
  const side = mkdtempSync(join(tmpdir(), 'dyno-warmup-side-'))
  SPREAD.forEach((factor, position) => {
    const dir = join(side, `run-${position + 1}`)
    cpSync(fixture, dir, { recursive: true })
    for (const entry of writtenIndex(dir).results) {
      const path = join(dir, entry.file)
      const record = JSON.parse(readFileSync(path, 'utf8'))
      record.summary.requestsPerSec.mean = Math.round(record.summary.requestsPerSec.mean * factor * 10) / 10
      edit?.(record, position + 1)
      const errors = schemaErrors('result', record)
      if (errors.length > 0) throw new Error(`${path} no longer passes the result schema: ${errors.join('; ')}`)
      writeFileSync(path, JSON.stringify(record, null, 2))
    }
  })
  return side
}

/**
 * The candidate's express as a slower release would leave it: 20% fewer req/s; three runs of four slowing down after 3 s (the recorded
 * runs warm up, steady from 750 ms); its json route deoptimised 40 times a run on a wrong map; the timer's deoptimisation gone.
 * @param {any} record @param {number} run
 */
function slowerExpress (record, run) {
  if (record.sut.name !== 'express') return
  record.summary.requestsPerSec.mean = Math.round(record.summary.requestsPerSec.mean * 0.8 * 10) / 10
  if (run <= 3) {
    record.classification.classification = 'slowdown'
    record.classification.throughput = { classification: 'slowdown', changePointsMs: [750, 3000], steadyStartMs: 3000, steadyLevel: 5300 }
  }
  const events = record.summary.runtimeEvents
  const timer = events.deoptimizations.find((/** @type {{ fn: string }} */ group) => group.fn === TIMER_DEOPT)
  events.deoptimizations = [HANDLER_DEOPT, ...events.deoptimizations.filter((/** @type {{ fn: string }} */ group) => group !== timer)]
  // The windows and the totals say the same: the timer's deoptimisation left the first window, the route's 40 came in the fourth.
  const [first, fourth] = [events.windows[0].deoptimized, events.windows[3].deoptimized]
  first.count -= 1
  first.byCategory[timer.category] -= 1
  fourth.count += HANDLER_DEOPT.count
  fourth.byCategory[HANDLER_DEOPT.category] = (fourth.byCategory[HANDLER_DEOPT.category] ?? 0) + HANDLER_DEOPT.count
  const totals = events.totals.deoptimized
  totals.count += HANDLER_DEOPT.count - 1
  totals.byCategory[timer.category] -= 1
  totals.byCategory[HANDLER_DEOPT.category] += HANDLER_DEOPT.count
}

/** fastify's steady state found 250 ms later: within the two windows (500 ms) that a move must exceed. */
function fastifyALittleLater (/** @type {any} */ record) {
  if (record.sut.name !== 'fastify') return
  record.classification.throughput.steadyStartMs += 250
}

/** @param {string[]} args */
const compare = async (...args) => {
  const result = await runCli(['compare', ...args])
  expect(result.code, result.stderr).toBe(0)
  return result.stdout
}

describe('a cell whose warm-up and level changed', () => {
  let baseline = ''
  let candidate = ''
  beforeAll(() => {
    baseline = sideOf(EVENTS_ON)
    candidate = sideOf(EVENTS_ON, (record, run) => {
      slowerExpress(record, run)
      fastifyALittleLater(record)
    })
  })

  it('names the change of warm-up, the rates of events and the deoptimisation of one side only in the table', async () => {
    const text = await compare(baseline, candidate)
    const section = text.slice(text.indexOf('Warm-up, baseline → candidate'))
    expect(section).toContain(
      '\n  express × json (100 connections): warm-up, steady from 750 ms → slowdown ×3, warm-up ×1, steady from 3,000 ms ' +
        '(steady 2,250 ms later, beyond ±500 ms)\n'
    )
    expect(section).toContain(
      '\n    runtime events where req/s regressed, per second of load in the measure phase, baseline → candidate:\n'
    )
    // 3 of each run's recorded 9 deoptimisations had changed shapes, the route's 40 more in the candidate's: 12 and 172 in 20 s.
    expect(section).toMatch(/\n {6}deoptimised: 1\.8 → 9\.6 \(insufficient feedback 1\.2 → 1, shape or type changed 0\.6 → 8\.6\)\n/)
    expect(section).toContain(`\n      deoptimised only in the candidate: ${HANDLER_DEOPT.fn} at ${HANDLER_DEOPT.position}: ` +
      'wrong map (shape or type changed), ×160 in 4 of 4 runs\n')
    expect(section).toMatch(
      new RegExp(
        `\\n {6}deoptimised only in the baseline: ${TIMER_DEOPT} at .*: Insufficient type feedback for call ` +
          '\\(insufficient feedback\\), ×4 in 4 of 4 runs\\n'
      )
    )
    // A group both sides had (the listener lookup of every run) is no difference.
    expect(section).not.toContain('emit node:events:471:44')
    expect(section).toMatch(/\n {6}optimised: sparkplug [\d.]+ → [\d.]+, turbofan [\d.]+ → [\d.]+\n/)
    expect(section).toMatch(/\n {6}collections: minor [\d.]+ \([\d.]+% paused\) → [\d.]+ \([\d.]+% paused\), major /)
    // fastify's level and warm-up held: its steady start moved less than its tolerance.
    expect(section).not.toContain('fastify')
  })

  it('writes the same in markdown, the functions in code spans', async () => {
    const markdown = await compare(baseline, candidate, '--format', 'md')
    expect(markdown).toMatch(/^## dyno compare\n\n\*\*1 significant regression\*\* beyond 5%; 1 with a changed warm-up \(see Warm-up\)\n/)
    const section = markdown.slice(markdown.indexOf('### Warm-up'))
    expect(section).toContain(
      '\n- express × json (100 connections): warm-up, steady from 750 ms → slowdown ×3, warm-up ×1, steady from 3,000 ms ' +
        '(steady 2,250 ms later, beyond ±500 ms)\n'
    )
    expect(section).toContain(
      `\n    - deoptimised only in the candidate: \`${HANDLER_DEOPT.fn}\` at \`${HANDLER_DEOPT.position}\`: wrong map`
    )
    expect(section).toContain(`\n    - deoptimised only in the baseline: \`${TIMER_DEOPT}\` at \``)
    expect(section).not.toContain('fastify')
  })

  it('carries both in the JSON document, which its schema accepts', async () => {
    const document = JSON.parse(await compare(baseline, candidate, '--format', 'json'))
    expect(schemaErrors('compare', document)).toEqual([])
    expect(document.schemaVersion).toBe(5)
    expect(document.summary).toMatchObject({ regressed: 1, unchanged: 1 })
    const [express, fastify] = ['express', 'fastify'].map((sut) =>
      document.rows.find((/** @type {{ sut: string }} */ row) => row.sut === sut)
    )
    expect(express.verdict).toBe('regressed')
    expect(express.warmup).toEqual({
      baseline: { classification: 'warm-up', runs: [{ classification: 'warm-up', runs: 4 }], steadyStartMs: 750, reason: null },
      candidate: {
        classification: 'slowdown',
        runs: [{ classification: 'slowdown', runs: 3 }, { classification: 'warm-up', runs: 1 }],
        steadyStartMs: 3000,
        reason: null
      },
      changed: true,
      steadyStartShiftMs: 2250,
      toleranceMs: 500
    })
    const differences = express.runtimeDifferences
    expect(differences.reason).toBeNull()
    expect(differences.baseline).toMatchObject({ source: 'v8', loadSec: 20, deoptimized: { perSec: 1.8 } })
    expect(differences.candidate.deoptimized.byCategoryPerSec).toEqual({ 'insufficient feedback': 1, 'shape or type changed': 8.6 })
    expect(differences.deoptimizations.onlyInCandidate).toEqual([{
      fn: HANDLER_DEOPT.fn, position: HANDLER_DEOPT.position, reason: 'wrong map', category: 'shape or type changed', count: 160, runs: 4
    }])
    expect(differences.deoptimizations.onlyInBaseline).toMatchObject([{ fn: TIMER_DEOPT, count: 4, runs: 4 }])
    expect(fastify.verdict).toBe('unchanged')
    expect(fastify.warmup).toMatchObject({
      baseline: { classification: 'warm-up', steadyStartMs: 750 },
      candidate: { classification: 'warm-up', steadyStartMs: 1000 },
      changed: false,
      steadyStartShiftMs: 250,
      toleranceMs: 500
    })
    expect(fastify.runtimeDifferences).toBeNull()
  })
})

describe('a side whose runtime events were not collected', () => {
  it('says which side and why, and that the two sides differ in collecting them', async () => {
    const baseline = sideOf(EVENTS_OFF)
    const candidate = sideOf(EVENTS_ON, slowerExpress)
    const document = JSON.parse(await compare(baseline, candidate, '--format', 'json'))
    expect(schemaErrors('compare', document)).toEqual([])
    const express = document.rows.find((/** @type {{ sut: string }} */ row) => row.sut === 'express')
    expect(express.verdict).toBe('regressed')
    expect(express.runtimeDifferences).toEqual({
      levelChange: { by: 'verdict', verdict: 'regressed', ratio: null, interval: null },
      reason: expect.stringMatching(
        /^the baseline has no runtime events: not collected: the run had `--runtime-events off` .*\(.*express--json\.json\)$/
      ),
      baseline: null,
      candidate: null,
      deoptimizations: null
    })
    expect(express.notes).toContain('runtime events were collected in the candidate\'s runs only (--runtime-events): ' +
      'collecting them costs the SUT time, so part of a change of level may be theirs')
    const text = await compare(baseline, candidate)
    expect(text).toMatch(/\n {4}runtime events where req\/s regressed: not compared: the baseline has no runtime events: not collected: /)
  })
})

describe('one run a side (the sustained profile)', () => {
  it('sets the runtime events side by side where the steady windows moved beyond their own spread, saying it is ' +
    'not a verdict', async () => {
    /** One copy of the run, express's windows (and its req/s) scaled by `factor`. @param {number} factor */
    const single = (factor) => {
      const dir = mkdtempSync(join(tmpdir(), 'dyno-warmup-single-'))
      cpSync(EVENTS_ON, dir, { recursive: true })
      for (const entry of writtenIndex(dir).results) {
        const path = join(dir, entry.file)
        const record = JSON.parse(readFileSync(path, 'utf8'))
        if (record.sut.name === 'express') {
          record.summary.requestsPerSec.mean *= factor
          for (const window of record.summary.timeseries) window.requestsPerSec *= factor
        }
        writeFileSync(path, JSON.stringify(record, null, 2))
      }
      return dir
    }
    const document = JSON.parse(await compare(single(1), single(0.8), '--format', 'json'))
    expect(schemaErrors('compare', document)).toEqual([])
    const [express, fastify] = ['express', 'fastify'].map((sut) =>
      document.rows.find((/** @type {{ sut: string }} */ row) => row.sut === sut)
    )
    expect(express).toMatchObject({ status: 'too-few-repeats', verdict: null })
    expect(express.runtimeDifferences.levelChange).toMatchObject({ by: 'steady windows', verdict: null, ratio: 0.8 })
    expect(express.runtimeDifferences.levelChange.interval[1]).toBeLessThan(1)
    expect(fastify.runtimeDifferences).toBeNull()
    const text = await compare(single(1), single(0.8))
    expect(text).toMatch(/runtime events where the steady windows' req\/s moved ×0\.8 \(95% interval [\d.]+–[\d.]+; one run a side/)
  })
})

describe('results written before dyno classified warm-up', () => {
  it('compare as before: the same verdict, no warm-up section, nothing of runtime events', async () => {
    const figures = { requestsPerSec: [10_000, 10_100, 9_900, 10_050], p99Ms: [2.0, 2.1, 1.9, 2.05] }
    const baseline = runWithFigures(FOUR_REPEATS, figures)
    const candidate = runWithFigures(FOUR_REPEATS, {
      requestsPerSec: figures.requestsPerSec.map((value) => value * 0.9),
      p99Ms: figures.p99Ms
    })
    const document = JSON.parse(await compare(baseline, candidate, '--format', 'json'))
    expect(schemaErrors('compare', document)).toEqual([])
    expect(document.rows[0]).toMatchObject({ verdict: 'regressed', warmup: null, runtimeDifferences: null, notes: [] })
    expect(await compare(baseline, candidate)).not.toMatch(/warm-up|runtime events/i)
    expect(await compare(baseline, candidate, '--format', 'md')).not.toMatch(/warm-up|runtime events/i)
  })
})

describe('a steady start that moves', () => {
  /**
   * @param {number} baselineMs @param {number} candidateMs the steady start of each side's one run
   * @returns {boolean | undefined} whether the warm-up changed
   */
  const changed = (baselineMs, candidateMs) => {
    const run = (/** @type {number} */ steadyStartMs) => ({
      file: 'x.json',
      record: /** @type {any} */ ({
        status: 'ok',
        load: { windowMs: 250 },
        summary: { requestsPerSec: { mean: 1000 } },
        classification: { classification: 'warm-up', reason: null, throughput: { classification: 'warm-up', steadyStartMs } }
      })
    })
    return warmupChange({ baseline: [run(baselineMs)], candidate: [run(candidateMs)] })?.changed
  }

  it('changes when it moves by more than two windows and a quarter of the baseline\'s start, either way', () => {
    // At 2,000 ms both allow 500 ms; at 400 ms two windows (500 ms) are more than a quarter (100 ms); at 4,000 ms a quarter is 1,000 ms.
    expect([changed(2000, 2500), changed(2000, 2501), changed(2000, 1499)]).toEqual([false, true, true])
    expect([changed(400, 900), changed(400, 901)]).toEqual([false, true])
    expect([changed(4000, 4999), changed(4000, 5001), changed(4000, 3000), changed(4000, 2999)]).toEqual([false, true, false, true])
  })
})
