// @ts-check
// The speed probe is a real process pinned to the SUT's cpus: off, it does no work and reads nothing; on, a chunk every 50 ms, each
// one's cpu read by the probe itself; a window reads the chunks that ended in it; closed (or once dyno's pipe to it ends), it is gone.
import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, expect, it } from 'vitest'
import { startSpeedProbe } from '../../src/platform/resources/speed-probe/speed-probe.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { trackRuns } from '../support/leftover-processes.js'

const runs = trackRuns()
afterAll(() => runs.expectNoneLeft(expect))

it('reads chunks only while on, each window its own, and stops with close', async () => {
  const probe = await startSpeedProbe({ cpus: [0], env: runEnv(runs.add(`test-speed-probe-${randomUUID()}`)) })
  try {
    const offFromMs = Date.now()
    await delay(300)
    expect(probe.readingOf({ fromMs: offFromMs, toMs: Date.now() })).toBeNull()

    probe.resume()
    const onFromMs = Date.now()
    await delay(600)
    const onToMs = Date.now()
    const reading = probe.readingOf({ fromMs: onFromMs, toMs: onToMs })
    // 600 ms at a chunk every 50 ms: 12, fewer only where the machine held the probe back.
    expect(reading?.chunks).toBeGreaterThanOrEqual(3)
    expect(reading?.chunks).toBeLessThanOrEqual(13)
    expect(reading?.cpuUsPerChunk).toBeGreaterThan(0)
    // A window holds only the chunks that ended in it.
    const halfMs = onFromMs + 300
    const first = probe.readingOf({ fromMs: onFromMs, toMs: halfMs })?.chunks ?? 0
    const second = probe.readingOf({ fromMs: halfMs + 1, toMs: onToMs })?.chunks ?? 0
    expect(first + second).toBe(reading?.chunks)

    probe.pause()
    await delay(150)
    const pausedFromMs = Date.now()
    await delay(300)
    expect(probe.readingOf({ fromMs: pausedFromMs, toMs: Date.now() })).toBeNull()
  } finally {
    await probe.close()
  }
})
