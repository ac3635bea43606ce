// @ts-check
import { PassThrough } from 'node:stream'
import { afterAll, expect, it } from 'vitest'
import { calibrate } from '../../src/interface/commands/calibrate-command.js'
import { parseOptions } from '../../src/interface/cli/command-table.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'

const runs = trackRuns()
// calibrate measures every engine installed: the test expects all of them.
const absent = missing('wrk', 'native')

/** @param {PassThrough} stream */
const text = (stream) => String(stream.read() ?? '')

it.skipIf(absent)('drives node-http with each engine at the same connections and prints the rates, the generator cpu share and the ratios' +
  skipNote(absent), async () => {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const code = await calibrate(
    {
      ...parseOptions('calibrate', { '--frameworks': 'node-http', '--connections': '10', '--duration': '1', '--warmup': '0' }).values,
      runId: runs.add('calibrate-test')
    },
    { stdout, stderr },
    new AbortController().signal
  )
  const output = text(stdout)
  expect(text(stderr)).toBe('')
  expect(code).toBe(0)
  // Every engine's rate and the share of its generator cpus it used.
  for (const engine of ['autocannon', 'native', 'wrk', 'wrk (no checks)']) {
    expect(output).toMatch(
      new RegExp(`node-http\\s*│\\s*10\\s*│\\s*${engine.replace(/[()]/g, '\\$&')}\\s*│\\s*[\\d,]+\\s*│\\s*\\d+(\\.\\d)?\\s*│`)
    )
  }
  expect(output).toMatch(
    /node-http @ 10 connections, against autocannon: wrk \d+(\.\d+)?×, wrk \(no checks\) \d+(\.\d+)?×, native \d+(\.\d+)?×/
  )
}, 60_000)

afterAll(() => { if (!absent) runs.expectNoneLeft(expect) })
