// @ts-check
// A capacity cell on a real SUT (node-http on port 0, the native engine, short steps): the closed-loop ceiling, then steps from the lowest
// rate up, each recorded with what was offered and achieved, its percentiles, failures, cpu and the generator's lag; a capacity that is one
// of the rates held; then the connections sweep, a closed loop at each level; results valid against the schema, report.md and report.html
// with the capacity and sweep tables. Interrupted as its second step starts, the cell is written with the step measured before;
// interrupted in the sweep, with its capacity and the levels measured before.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../../src/platform/paths.js'
import { loadSut } from '../../../src/subjects/suts/discover-suts.js'
import { capacity } from '../../../src/measures/capacity/capacity.js'
import { writeReports } from '../../../src/reports/report/write-reports.js'
import { trackRuns } from '../../support/leftover-processes.js'
import { runInTempDir } from '../../support/run-fixture.js'
import { schemaErrors } from '../../support/result-schemas.js'

const runs = trackRuns()
const nodeHttp = () => loadSut(join(PACKAGES_DIR, 'node-http'))

/**
 * A short search: 0.2 s steps from 100 req/s up to at most 1,600 req/s, which node-http holds here unless the machine is swamped. On the
 * median, whose 40 requests (step-length.js) fit in 0.4 s at 100 req/s: a p99 would hold the lowest step 20 s.
 */
const SEARCH = { objective: 'p50<=50ms', minRatePerSec: 100, maxRatePerSec: 1600, stepSec: 0.2, sweepConnections: [5, 50] }

describe('a capacity run', () => {
  it('measures the ceiling and the steps, finds a capacity among the rates held, and reports it', async () => {
    const { written, runDir } = await runInTempDir({
      runs,
      suts: [nodeHttp()],
      scenarios: ['json'],
      measure: capacity,
      load: { engine: 'native', warmupSec: 0.2, durationSec: 0.5, capacity: SEARCH }
    })
    expect(written).toHaveLength(1)
    const [record] = written
    expect(schemaErrors('result', record)).toEqual([])
    expect(record.status, record.reason).toBe('ok')
    expect(record.load.measure).toBe('capacity')
    expect(record.summary).toBeNull()
    // Judged for disturbance on its most disturbed phase, each step with what others took of the cpus.
    expect(record.interference).toMatchObject({ disturbed: expect.any(Boolean), worstSharePct: expect.any(Number) })
    for (const step of record.capacity.steps) expect(step.othersCpuPct).toBeLessThanOrEqual(record.interference.worstSharePct + 0.1)
    const figures = record.capacity
    expect(figures.objective).toBe('p50<=50ms')
    expect(figures.ceiling.requestsPerSec).toBeGreaterThan(0)
    expect(figures.steps[0].offeredPerSec).toBe(100)
    for (const step of figures.steps) {
      expect(step.requests).toBeGreaterThan(0)
      expect(step.sentPerSec).toBeGreaterThan(0)
      expect(typeof step.maxSendLagMs).toBe('number')
      expect(step.latencyMs.p50).toBeLessThanOrEqual(step.latencyMs.p99)
      expect(step.objective).toEqual([expect.objectContaining({ percentile: 50, maxMs: 50 })])
      expect(step.held).toBe(step.reason === null)
      // Long enough for 40 requests past the warm-up (0.4 s at 100 req/s), else --step; each pause it met recorded.
      expect(step.requiredRequests).toBe(40)
      expect(step.durationSec).toBeGreaterThan(0)
      expect(step.pauses).toMatchObject({ stealWindowMs: 100, generatorLagMaxMs: expect.any(Number) })
      expect(step.pauses.sutEventLoopMaxMs === null || step.pauses.sutEventLoopMaxMs >= 0).toBe(true)
      expect(step.attempts.every((/** @type {{ held: boolean, measureAgain: string }} */ attempt) =>
        !attempt.held && typeof attempt.measureAgain === 'string')).toBe(true)
      // Held: 99 % of what was offered answered, those still in flight at the end (sent within the objective's 50 ms) apart.
      const inFlight = step.offeredPerSec * 0.05 + 1
      if (step.held) expect(step.requests).toBeGreaterThanOrEqual(0.99 * step.offeredPerSec * step.durationSec - inFlight - 1e-9)
    }
    const held = figures.steps.filter((/** @type {{ held: boolean }} */ step) => step.held)
      .map((/** @type {{ offeredPerSec: number }} */ step) => step.offeredPerSec)
    if (figures.capacityPerSec > 0) {
      expect(Math.max(...held)).toBe(figures.capacityPerSec)
      const line = capacity.report.resultLine(record)
      expect(line).toContain(`capacity ${figures.capacityPerSec.toLocaleString('en-US')} req/s within p50<=50ms`)
    } else {
      // A machine too busy for even the lowest step: capacity 0, and the reason.
      expect(figures.limit).toMatch(/^at 100 req\/s: /)
    }
    // The sweep: each level a closed loop at its connections, after the search, on the same launch.
    expect(record.load.capacity.sweepConnections).toEqual([5, 50])
    expect(figures.connectionSweep.map((/** @type {{ connections: number }} */ level) => level.connections)).toEqual([5, 50])
    for (const level of figures.connectionSweep) {
      expect(level).toMatchObject({ cutShort: false, failed: 0 })
      expect(level.requests).toBeGreaterThan(0)
      expect(level.requestsPerSec).toBeGreaterThan(0)
      expect(level.latencyMs.p50).toBeLessThanOrEqual(level.latencyMs.p99)
    }
    expect(figures.sweepStopped).toBeNull()
    expect(capacity.report.resultLine(record)).toMatch(/\n {2}sweep 5: [\d,]+ req\/s, p99 [\d.]+ ms; 50: [\d,]+ req\/s, p99 [\d.]+ ms/)
    const [markdown, html] = writeReports([runDir]).map((path) => readFileSync(path, 'utf8'))
    expect(markdown).toContain('| framework | capacity req/s | 95% interval | rank | launches | closed-loop req/s |')
    expect(markdown).toMatch(/\| node-http \| [\d,]+ \|/)
    expect(markdown).toContain('| framework | p99 at 5 | p99 at 50 | failures from |')
    expect(markdown).toMatch(/\| node-http \| [\d.]+ ms \| [\d.]+ ms \| (none to 50|\d+ connections) \|/)
    expect(html).toContain('data-capacity-chart="0"')
    expect(html).toContain('data-sweep-chart="0"')
    const terminal = capacity.report.terminalTable?.(written)
    expect(terminal).toContain('capacity, json (objective p50<=50ms):')
    expect(terminal).toContain('connections sweep, json (closed loop, p99 from each send, median over launches):')
  })

  it('keeps the capacity and the levels measured when interrupted in the sweep', async () => {
    const controller = new AbortController()
    const { written } = await runInTempDir({
      runs,
      suts: [nodeHttp()],
      scenarios: ['json'],
      measure: capacity,
      signal: controller.signal,
      load: { engine: 'native', warmupSec: 0.2, durationSec: 0.5, capacity: { ...SEARCH, objective: 'p50<=2s', maxRatePerSec: 200 } },
      hooks: { onProgress: (event) => { if (event.stage === '50 connections') controller.abort('SIGINT') } }
    })
    const [record] = written
    expect(record.status).toBe('failed')
    expect(record.reason)
      .toMatch(/interrupted by SIGINT after \d+ steps? and 1 level of the connections sweep; the steps measured are kept/)
    expect(record.capacity.capacityPerSec).toBeGreaterThan(0)
    expect(record.capacity.connectionSweep[0]).toMatchObject({ connections: 5, cutShort: false })
    expect(record.capacity.connectionSweep.slice(1).every((/** @type {{ cutShort: boolean }} */ level) => level.cutShort)).toBe(true)
    expect(schemaErrors('result', record)).toEqual([])
  })

  it('keeps every step measured when interrupted, in the result written', async () => {
    const controller = new AbortController()
    let stepsStarted = 0
    const { written } = await runInTempDir({
      runs,
      suts: [nodeHttp()],
      scenarios: ['json'],
      measure: capacity,
      signal: controller.signal,
      // An objective so loose that a busy machine holds the lowest step: the search goes on to a second.
      load: { engine: 'native', warmupSec: 0.2, durationSec: 0.5, capacity: { ...SEARCH, objective: 'p50<=2s' } },
      hooks: {
        // Each step says its rate as it starts: at the second, one step is measured and recorded.
        onProgress: (event) => {
          if (!/^[\d,]+ req\/s offered$/.test(event.stage)) return
          stepsStarted += 1
          if (stepsStarted === 2) controller.abort('SIGINT')
        }
      }
    })
    const [record] = written
    expect(record.status).toBe('failed')
    expect(record.errorCode).toBe('DYNO_ERR_INTERRUPTED')
    expect(record.reason).toMatch(/interrupted by SIGINT after \d+ steps?; the steps measured are kept/)
    expect(record.capacity.steps.length).toBeGreaterThanOrEqual(1)
    expect(record.capacity.steps[0]).toMatchObject({ offeredPerSec: 100, cutShort: false, held: true })
    expect(record.capacity.capacityPerSec).toBeNull()
    expect(schemaErrors('result', record)).toEqual([])
  })

  afterAll(() => runs.expectNoneLeft(expect))
})
