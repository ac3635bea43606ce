// @ts-check
// The native engine (engines/native) against real SUTs: every response's status counted and body checked,
// one µs sample per response, windows, pipelining, several threads merged exactly, stopping on request,
// and the open model that shows a stall the closed loop hides.
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeHistogram } from '../../src/load/latency-histogram.js'
import { nativeEngine } from '../../src/load/engines/native/native-descriptor.js'
import { startNativeLoad } from '../../src/load/engines/native/native-engine.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'
import { planFor, withSut } from '../support/engine-under-test.js'

const runs = trackRuns()
const absent = missing('native')

const nodeHttp = () => loadSut(join(PACKAGES_DIR, 'node-http'))
/** @param {Partial<Record<'warmup' | 'measure', import('../../src/load/load-plan.js').PhaseSummary>>} phases */
const measured = (phases) => /** @type {import('../../src/load/load-plan.js').PhaseSummary} */ (phases.measure)

describe.skipIf(absent)(`the native engine${skipNote(absent)}`, () => {
  it('drives node-http (POST with a body) and reports every response: statuses, bytes, one µs sample each, windows', async () => {
    const { phases } = await withSut(runs, nodeHttp(), (port, env) => startNativeLoad(planFor(port, 'post'), { env, threads: 1 }).done)
    const summary = measured(phases)
    expect(summary.requests).toBeGreaterThan(200)
    expect(summary.statusCounts).toEqual({ 200: summary.requests })
    expect(summary).toMatchObject({ errors: 0, timeouts: 0, non2xx: 0, mismatches: 0, unexpectedStatus: 0, stoppedEarly: false })
    expect(summary.bytesPerSec).toBeGreaterThan(summary.requestsPerSec.mean * 1000) // the ~1 KB echo, each time
    expect(decodeHistogram(summary.latencyHistogramUs).totalCount).toBe(summary.requests)
    const windows = /** @type {import('../../src/load/timeseries.js').Window[]} */ (summary.timeseries)
    expect(windows.length).toBeGreaterThanOrEqual(4)
    expect(windows.reduce((sum, window) => sum + window.requests, 0)).toBe(summary.requests)
    expect(windows[1].latencyMs?.p50).toBeLessThanOrEqual(/** @type {number} */ (windows[1].latencyMs?.p99))
  }, 30_000)

  it('pipelines and still times every response, and merges the histograms and windows of two threads exactly', async () => {
    const { phases } = await withSut(
      runs,
      nodeHttp(),
      (port, env) => startNativeLoad(planFor(port, 'plaintext', { pipelining: 4 }), { env, threads: 2 }).done
    )
    const summary = measured(phases)
    expect(summary.statusCounts).toEqual({ 200: summary.requests })
    expect(summary.mismatches).toBe(0)
    expect(decodeHistogram(summary.latencyHistogramUs).totalCount).toBe(summary.requests)
    const windows = /** @type {import('../../src/load/timeseries.js').Window[]} */ (summary.timeseries)
    expect(windows.reduce((sum, window) => sum + window.requests, 0)).toBe(summary.requests)
  }, 30_000)

  it('through the harness, `--engine native` writes a schema-valid result with the engine and its windows', async () => {
    const { written: [record] } = await runInTempDir({
      runs, suts: [nodeHttp()], scenarios: ['json'], load: { durationSec: 1, warmupSec: 0.5, engine: 'native' }
    })
    expect(schemaErrors('result', record)).toEqual([])
    expect(record).toMatchObject({ status: 'ok', load: { engine: 'native', engineVersion: nativeEngine.recordedAs(null).engineVersion } })
    expect(record.summary.timeseries.length).toBeGreaterThanOrEqual(4)
    expect(record.warmupAnalysis).not.toBeNull()
    expect(record.summary.generatorCpuPct).toBeGreaterThan(0)
  }, 60_000)

  afterAll(() => runs.expectNoneLeft(expect))
})
