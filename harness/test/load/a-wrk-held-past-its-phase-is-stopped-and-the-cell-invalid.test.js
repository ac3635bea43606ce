// @ts-check
// A wrk thread reads a connection for as long as more is waiting, and looks at its stop only between such runs: a SUT that sends an
// answer without end, faster than wrk reads it, holds that thread past the phase for good (seen beside a busy cpu with the hostile
// fixture's flood). The phase must then end within its grace, wrk's process group stopped, with the SUT named as the cause. The
// stand-in here is a wrk that never says its load ended, so that the test does not depend on which of the two is faster.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'vitest'
import { startWrkPhase } from '../../src/load/engines/wrk/wrk-phase.js'
import { failedWith } from '../../src/records/outcome.js'

const HELD_WRK = fileURLToPath(new URL('../fixtures/held-wrk/wrk', import.meta.url))

/** @param {number | undefined} pid @returns {boolean} */
const alive = (pid) => {
  try {
    execFileSync('kill', ['-0', String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** @param {number | undefined} pid @returns {string | null} the process's command name */
const comm = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return null
  }
}

// The two cases only wait on their stand-ins, so they wait side by side.
describe.concurrent('a wrk held past its phase', () => {
  it('is stopped 10 s after the phase, and the cell is invalid, naming an answer that never ends', async ({ expect }) => {
    const startedMs = performance.now()
    const phase = startWrkPhase({
      wrkPath: HELD_WRK, url: 'http://127.0.0.1:9/json', threads: 1, connections: 1, durationSec: 1, timeoutSec: 10, env: {}
    })
    const error = await phase.done.then(() => null, (/** @type {any} */ thrown) => thrown)
    const tookMs = performance.now() - startedMs
    expect(error?.code).toBe('DYNO_ERR_UNEXPECTED_UNDER_LOAD')
    expect(error.message).toMatch(/^wrk was still reading 10 s after its 1 s phase ended: an answer that never ends/)
    expect(failedWith(error)).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_UNEXPECTED_UNDER_LOAD' })
    // The phase's second, the grace, and at most the process group's own grace of 2 s.
    expect(tookMs).toBeGreaterThanOrEqual(10_900)
    expect(tookMs).toBeLessThan(30_000)
    expect(alive(phase.pid)).toBe(false)
  }, 40_000)

  it('after a stop it does not heed, ends within the grace with no report, as a stop before wrk could report', async ({ expect }) => {
    const phase = startWrkPhase({
      wrkPath: HELD_WRK, url: 'http://127.0.0.1:9/json', threads: 1, connections: 1, durationSec: 60, timeoutSec: 10, env: {}
    })
    // Stopped once it is held (a SIGINT before that ends it, as it ends a wrk that has not yet set up its handler).
    await expect.poll(() => comm(phase.pid), { timeout: 10_000 }).toBe('sleep')
    const startedMs = performance.now()
    phase.stop()
    await expect(phase.done).resolves.toBeNull()
    expect(performance.now() - startedMs).toBeGreaterThanOrEqual(9_900)
    expect(performance.now() - startedMs).toBeLessThan(30_000)
    expect(alive(phase.pid)).toBe(false)
  }, 40_000)
})
