// @ts-check
// Instructions per request: what a SUT's code costs, independent of how fast the machine happens to be. The SUT
// runs twice under cachegrind, each time on a fresh process with the same warm-up requests; the second launch
// answers `requests` more than the first. The difference of the two counts over `requests` is the cost of one
// request, with start-up and warm-up cancelled out. Every response is checked as under any load.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DynoError } from '../errors.js'
import { startSut } from '../sut-process/start-sut.js'
import { findValgrind, readInstructions, underCachegrind } from './cachegrind.js'
import { sendRequests } from './send-requests.js'

/**
 * @typedef {{ nodeFlags: string[], env: Record<string, string> }} CountSettings runtime settings of a count: flags before a Node
 *   SUT's start file (V8 flags are not allowed in NODE_OPTIONS), and variables
 */

/**
 * Runtime settings that make a Node SUT's count repeatable without changing its code path: V8's hash and random
 * seeds fixed, and its work on helper threads (concurrent marking, compilation) kept on the main thread, whose
 * timing otherwise decides how much of it lands inside the measured requests.
 * @type {CountSettings}
 */
export const NODE_COUNT_SETTINGS = Object.freeze({ nodeFlags: ['--hash-seed=1', '--random-seed=1', '--single-threaded'], env: { UV_THREADPOOL_SIZE: '1' } })
/** A SUT starts 20–50 times slower under cachegrind: the ready line gets at least this long. */
export const INSTRUCTION_COUNT_READY_TIMEOUT_SEC = 120
/** How many requests warm a SUT up before the count, and how many are counted, unless said otherwise. */
export const INSTRUCTION_COUNT_DEFAULTS = Object.freeze({ warmupRequests: 5000, requests: 5000, concurrency: 4 })

/** @type {CountSettings} */
const NO_SETTINGS = Object.freeze({ nodeFlags: [], env: {} })

/**
 * @typedef {object} InstructionCount
 * @property {'cachegrind'} tool
 * @property {'difference'} method two launches; (second − first) / requests
 * @property {number} warmupRequests
 * @property {number} requests the difference in answered requests between the launches
 * @property {number} concurrency
 * @property {{ requests: number, instructions: number, processes: number }[]} launches
 * @property {number} instructionsPerRequest
 * @property {CountSettings} settings what the SUT ran with for the count
 * @property {import('./send-requests.js').RequestCounts} checks of every response of both launches
 */

/**
 * @param {{ sut: import('../suts/resolve-subjects.js').Subject, scenario: import('@dyno/scenarios').Scenario, env: Record<string, string>,
 *   warmupRequests: number, requests: number, concurrency: number, readyTimeoutSec: number, signal?: AbortSignal, cpus?: number[] | null,
 *   settings?: CountSettings }} plan settings: the runtime settings of the count (default: NODE_COUNT_SETTINGS for a Node SUT, none otherwise)
 * @returns {Promise<InstructionCount>}
 */
export async function countInstructions ({ sut, scenario, env, warmupRequests, requests, concurrency, readyTimeoutSec, signal, cpus = null, settings: given }) {
  const valgrind = findValgrind()
  if (!valgrind) throw new DynoError('DYNO_ERR_LOAD_GENERATOR', 'counting instructions needs valgrind on PATH (apt-get install valgrind)')
  if (!sut.launch) throw new DynoError('DYNO_ERR_SUT_PACKAGE', `SUT ${sut.name} has no resolved launch command`)
  const node = sut.runtime.kind === 'node'
  const settings = given ?? (node ? NODE_COUNT_SETTINGS : NO_SETTINGS)
  const counted = { command: sut.launch.command, args: [...(node ? settings.nodeFlags : []), ...sut.launch.args] }
  const checks = { responses: 0, mismatches: 0, unexpectedStatus: 0, errors: 0 }
  const launches = []
  for (const measured of [0, requests]) {
    const outDir = mkdtempSync(join(tmpdir(), 'dyno-cachegrind-'))
    try {
      const launch = underCachegrind(valgrind, counted, outDir)
      const running = await startSut({ ...sut, launch: { ...launch, eventLoopProbe: false } }, { readyTimeoutSec, stopGraceSec: 60, env: { ...env, ...settings.env }, signal, cpus })
      let sent
      try {
        sent = await sendRequests({ port: running.port, scenario, count: warmupRequests + measured, concurrency, timeoutMs: 60_000 })
      } finally {
        // cachegrind writes its counts as each process ends: a clean SIGTERM, with time for valgrind to finish.
        await running.stop(60_000)
      }
      for (const key of /** @type {const} */ (['responses', 'mismatches', 'unexpectedStatus', 'errors'])) checks[key] += sent[key]
      const total = readInstructions(outDir)
      if (total.processes === 0) throw new DynoError('DYNO_ERR_LOAD_GENERATOR', `cachegrind wrote no count for ${sut.name}`)
      launches.push({ requests: warmupRequests + measured, ...total })
    } finally {
      rmSync(outDir, { recursive: true, force: true })
    }
  }
  return {
    tool: 'cachegrind',
    method: 'difference',
    warmupRequests,
    requests,
    concurrency,
    launches,
    instructionsPerRequest: Math.round((launches[1].instructions - launches[0].instructions) / requests),
    settings,
    checks
  }
}
