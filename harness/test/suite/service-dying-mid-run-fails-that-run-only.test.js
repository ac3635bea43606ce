// @ts-check
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, expect, it } from 'vitest'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { trackRuns } from '../support/leftover-processes.js'
import { skipUnless } from '../support/needs.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

/** @param {number} port @returns {number | null} the redis-server listening on that port */
function redisServerPid (port) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // redis-server rewrites its title to `redis-server 127.0.0.1:<port>`.
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ')
      if (command.includes('redis-server') && command.includes(`:${port}`)) return Number(entry)
    } catch {}
  }
  return null
}

it('fails the run in which Redis died, restarts it, and the next run is clean', async (context) => {
  skipUnless(context, 'redis')
  let killed = false
  let redisUrl = ''
  const nodeHttp = loadSut(`${PACKAGES_DIR}node-http`)
  const express = loadSut(`${PACKAGES_DIR}express`)
  const { written } = await runInTempDir({
    runs,
    suts: [nodeHttp, express],
    scenarios: ['redis'],
    load: { durationSec: 2 },
    hooks: {
      onServices: ({ described }) => { redisUrl = String(described.redis.url) },
      onProgress: (event) => {
        // Kill the server a second into the first run's measurement.
        if (killed || event.index !== 0 || event.stage !== 'load' || event.elapsedSec !== 1) return
        const port = Number(new URL(redisUrl).port)
        const pid = redisServerPid(port)
        if (pid === null) throw new Error(`no redis-server on port ${port}`)
        process.kill(pid, 'SIGKILL')
        killed = true
      }
    }
  })
  expect(killed).toBe(true)
  expect(written.map((record) => [record.sut.name, record.status, record.errorCode])).toEqual([
    ['node-http', 'failed', 'DYNO_ERR_SERVICE_DIED'],
    ['express', 'ok', null]
  ])
  expect(written[0].reason).toContain('redis died during the run')
  expect(written[1].serverCheck.withinBounds).toBe(true)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))
