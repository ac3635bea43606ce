// @ts-check
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { runSuite } from '../../src/suite/run-suite.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { scenarioNamed, shortLoad } from '../support/run-fixture.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { ON_A_SHARED_MACHINE, suiteOptions } from '../support/suite-options.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()

it('runs every cell once per round in a shuffled order, and aggregates median, bootstrap CI, CV, merged latency and ' +
  'rank groups', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-repeats-'))
  const suts = ['node-http', 'node-net'].map((name) => loadSut(`${PACKAGES_DIR}${name}`))
  const outcome = await runSuite(
    ...suiteOptions({
      suts,
      scenarios: [scenarioNamed('json')],
      load: shortLoad({ durationSec: 0.5 }),
      connections: [4, 16],
      repeats: 3,
      seed: 2026,
      out,
      ...ON_A_SHARED_MACHINE,
      recorded: { test: true }
    }),
    { onStart: ({ runId }) => runs.add(runId) }
  )

  const { index, records } = writtenRun(outcome.runDir)
  expect(schemaErrors('run-index', index)).toEqual([])
  expect(index.seed).toBe(2026)
  expect(index.results).toHaveLength(2 * 2 * 3)
  // Each round holds every (SUT, scenario, connections) exactly once; rounds are shuffled differently.
  const rounds = [1, 2, 3].map((repeat) =>
    index.results
      .filter((/** @type {{ repeat: number }} */ entry) => entry.repeat === repeat)
      .map(
        (/** @type {{ sut: string, scenario: string, connections: number }} */ entry) =>
          `${entry.sut}/${entry.scenario}/${entry.connections}`
      )
  )
  for (const round of rounds) expect(new Set(round).size).toBe(4)
  // A round takes its levels as blocks: both SUTs of a level back to back, each SUT's one launch serving the round.
  for (const round of rounds) {
    expect(round.map((cell) => cell.split('/').slice(1).join('/'))).toEqual(
      [0, 0, 2, 2].map((at) => round[at].split('/').slice(1).join('/')))
  }
  for (const repeat of [1, 2, 3]) {
    const ofRound = records.filter((record) => record.repeat.index === repeat)
    for (const sut of ['node-http', 'node-net']) {
      const served = ofRound.filter((record) => record.sut.label === sut).map((record) => record.sutProcess)
      expect(new Set(served.map((process) => process.pid)).size).toBe(1)
      expect(served.map((process) => process.servedBefore)).toEqual([0, 1])
    }
  }
  expect(new Set(rounds.map((round) => round.join())).size).toBeGreaterThan(1)
  expect(index.results.map((/** @type {{ file: string }} */ entry) => entry.file)).toContain('node-net--json--c16--r2.json')

  for (const [at, record] of records.entries()) {
    const entry = index.results[at]
    expect(schemaErrors('result', record)).toEqual([])
    expect(record.status).toBe('ok')
    expect(record.load.connections).toBe(entry.connections)
    expect(record.repeat).toEqual({ index: entry.repeat, of: 3 })
  }

  const { aggregates } = JSON.parse(readFileSync(join(outcome.runDir, index.aggregatesFile), 'utf8'))
  expect(schemaErrors('aggregates', JSON.parse(readFileSync(join(outcome.runDir, index.aggregatesFile), 'utf8')))).toEqual([])
  expect(aggregates).toHaveLength(4)
  for (const aggregate of aggregates) {
    expect(aggregate.runs).toBe(3)
    const sorted = [...aggregate.requestsPerSecRuns].sort((a, b) => a - b)
    expect(aggregate.requestsPerSec.median).toBeCloseTo(sorted[1], 0)
    expect(aggregate.requestsPerSec.ci95[0]).toBeGreaterThanOrEqual(sorted[0] - 0.1)
    expect(aggregate.requestsPerSec.ci95[1]).toBeLessThanOrEqual(sorted[2] + 0.1)
    expect(aggregate.requestsPerSec.cv).toBeGreaterThan(0)
    // The figure: the geometric mean of the rounds, inside its interval; ranked against the other SUT of its level.
    const {
      center,
      interval95: [low, high]
    } = aggregate.requestsPerSec
    expect(center).toBeGreaterThanOrEqual(sorted[0] - 0.1)
    expect(center).toBeLessThanOrEqual(sorted[2] + 0.1)
    expect(low).toBeLessThanOrEqual(center)
    expect(high).toBeGreaterThanOrEqual(center)
    expect(aggregate.rank.of).toBe(2)
    // Each round's level is a block of both SUTs back to back: 6 runs less 2 cells and 3 blocks, plus 1.
    expect(aggregate.noise).toMatchObject({ df: 2, nu0: 2, sdLogWithoutBlocks: expect.any(Number) })
    expect(aggregate.latencyMs.p50).toBeLessThanOrEqual(aggregate.latencyMs.p99)
  }
}, 120_000)

afterAll(() => runs.expectNoneLeft(expect))
