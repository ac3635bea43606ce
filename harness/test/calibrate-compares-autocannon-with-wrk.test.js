// @ts-check
import { PassThrough } from 'node:stream'
import { afterAll, expect, it } from 'vitest'
import { calibrate } from '../src/commands/calibrate-command.js'
import { findWrk } from '../src/load/wrk-phase.js'
import { trackRuns } from './support/leftover-processes.js'

const runs = trackRuns()
const wrkMissing = findWrk() === null
if (wrkMissing && process.env.CI === 'true') throw new Error('wrk is missing under CI=true (apt-get install wrk)')

/** @param {PassThrough} stream */
const text = (stream) => String(stream.read() ?? '')

it.skipIf(wrkMissing)('drives node-http with each engine at the same connections and prints the rates, the generator cpu share and the ratios', async () => {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const code = await calibrate(
    { frameworks: ['node-http'], connections: [10], durationSec: 1, warmupSec: 0, runId: runs.add('calibrate-test') },
    { stdout, stderr },
    new AbortController().signal
  )
  const output = text(stdout)
  expect(text(stderr)).toBe('')
  expect(code).toBe(0)
  // Every engine's rate and the share of its generator cpus it used.
  for (const engine of ['autocannon', 'native', 'wrk', 'wrk (no checks)']) {
    expect(output).toMatch(new RegExp(`node-http\\s*│\\s*10\\s*│\\s*${engine.replace(/[()]/g, '\\$&')}\\s*│\\s*[\\d,]+\\s*│\\s*\\d+(\\.\\d)?\\s*│`))
  }
  expect(output).toMatch(/node-http @ 10 connections, against autocannon: native \d+(\.\d+)?×, wrk \d+(\.\d+)?×, wrk without checks \d+(\.\d+)?×/)
}, 60_000)

afterAll(() => { if (!wrkMissing) runs.expectNoneLeft(expect) })
