// @ts-check
// Load from several hosts (`--load-hosts`) in the open model: the offered rate is shared among the hosts, never sent whole by each.
// Two native engines on this machine (two load hosts named `local`), started together against a real SUT, offer 600 req/s between
// them: each sends 300 and the merged phase offers and achieves 600, its send lags merged into one histogram.
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hostPart, startNativeOnHosts } from '../../src/load/engines/native/native-on-hosts.js'
import { decodeHistogram } from '../../src/load/latency-histogram.js'
import { localHost } from '../../src/platform/hosts/local/local-host.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { scenarioLoadPlan } from '../../src/load/load-plan.js'
import { withSut } from '../support/engine-under-test.js'
import { trackRuns } from '../support/leftover-processes.js'
import { scenarioNamed } from '../support/run-fixture.js'

const runs = trackRuns()
const RATE_PER_SEC = 600

/** @param {number} port */
const planOf = (port) => scenarioLoadPlan({
  port,
  scenario: scenarioNamed('json'),
  connections: 8,
  pipelining: 1,
  warmupSec: 0,
  durationSec: 2,
  windowMs: 250,
  ratePerSec: RATE_PER_SEC
})

describe('load hosts in the open model', () => {
  it('give each host an equal share of the offered rate, the shares adding up to it', () => {
    const plan = { connections: 7, ratePerSec: 900 }
    expect([0, 1, 2].map((index) => hostPart(plan, [3, 2, 2], index))).toEqual([
      { connections: 3, ratePerSec: 300 },
      { connections: 2, ratePerSec: 300 },
      { connections: 2, ratePerSec: 300 }
    ])
    expect(hostPart({ connections: 7, ratePerSec: null }, [4, 3], 1)).toEqual({ connections: 3, ratePerSec: null })
  })

  it('offer the rate once between them: each host sends its share, and the merged phase offers and achieves the whole', async () => {
    const hosts = [0, 1].map(() => ({ host: localHost('load', {}), cpus: [0], pin: false }))
    const outcome = await withSut(runs, loadSut(join(PACKAGES_DIR, 'node-http')), (port, env) =>
      startNativeOnHosts(planOf(port), hosts, { env }).done)
    const measure = outcome.phases.measure
    if (!measure?.rate || !measure.loadHosts) throw new Error('the measured phase has no rate or no hosts')
    expect(measure.loadHosts.map(({ connections, ratePerSec }) => [connections, ratePerSec])).toEqual([[4, 300], [4, 300]])
    expect(measure.rate.targetPerSec).toBe(RATE_PER_SEC)
    // 2 s at 600 req/s: 1,200 sends, each host's about half. The answers still in flight when the phase ends go uncounted: a few on a
    // quiet machine, up to 6 % where the SUT or a generator was descheduled for 60 ms at the end (the hypervisor here steals that).
    expect(measure.requests).toBeGreaterThan(1_200 * 0.9)
    expect(measure.requests).toBeLessThanOrEqual(1_200)
    for (const host of measure.loadHosts) expect(host.requests).toBeGreaterThan(600 * 0.9)
    expect(measure.loadHosts.reduce((sum, host) => sum + host.requests, 0)).toBe(measure.requests)
    expect(measure.rate.achievedSendPerSec).toBeGreaterThan(RATE_PER_SEC * 0.97)
    expect(measure.rate.achievedSendPerSec).toBeLessThan(RATE_PER_SEC * 1.03)
    expect(decodeHistogram(/** @type {string} */ (measure.rate.sendLagHistogramUs)).totalCount).toBeGreaterThanOrEqual(measure.requests)
    expect(measure).toMatchObject({ errors: 0, mismatches: 0, unexpectedStatus: 0 })
  }, 30_000)
})

afterAll(() => runs.expectNoneLeft(expect))
