// @ts-check
// A cell counted (`--measure instructions`): instructions under callgrind and system calls under strace, on this machine (reusing an
// identical count from the cache) or on the SUT's own host; every response of the count is checked as under load.
import { isDynoError } from '../../platform/errors.js'
import { findCallgrind } from './counts/callgrind.js'
import { countKey, readCachedCount, storeCount } from './counts/count-cache.js'
import {
  countInstructions, countSettingsFor, INSTRUCTION_COUNT_DEFAULTS, INSTRUCTION_COUNT_READY_TIMEOUT_SEC
} from './counts/count-instructions.js'
import { encodeCountSpec } from './counts/count-on-host.js'
import { WARMUP_RULE } from './counts/count-settle.js'
import { countSyscalls, findStrace, STRACE_MISSING } from './counts/count-syscalls.js'
import { runNodeScript } from '../../platform/hosts/run-node-script.js'
import { failed, failedWith, invalid, ok, skipped } from '../../records/outcome.js'
import { sutEnv } from '../cell-context.js'

/**
 * @typedef {import('../../records/outcome.js').Outcome} Outcome
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('./counts/count-instructions.js').InstructionCount} InstructionCount
 * @typedef {import('../cell-context.js').RunContext} RunContext
 * @typedef {import('../cell-context.js').Cell} Cell
 */

/**
 * `--measure instructions`: the SUT counted under callgrind on a fresh launch, window by window (count-instructions.js); every
 * response of the count is checked as under load.
 * @param {RunContext} context @param {Cell} cell @param {ResultRecord} record @returns {Promise<Outcome>}
 */
export async function countCell (context, cell, record) {
  const { load, signal, countCacheDir } = context
  const count = {
    warmupRequests: /** @type {number} */ (load.countWarmupRequests),
    warmupBoundRequests: Number(load.countWarmupBoundRequests ?? load.countWarmupRequests),
    // Named in the cache key: a count of another warm-up rule is never reused for this one.
    warmupRule: WARMUP_RULE,
    windowRequests: /** @type {number} */ (load.countWindowRequests),
    windows: /** @type {number} */ (load.countWindows),
    concurrency: INSTRUCTION_COUNT_DEFAULTS.concurrency,
    settings: countSettingsFor(cell.sut)
  }
  // A SUT on another machine is counted there, under that machine's valgrind.
  if (!context.sutHost.sharesProcesses) return countedOnHost(context, cell, record, count)
  const callgrind = findCallgrind()
  const { key, inputs } =
    countCacheDir && callgrind ? countKey({ sut: cell.sut, scenario: cell.scenario, valgrind: callgrind.valgrind, count }) : {}
  const cached = countCacheDir && key ? readCachedCount(countCacheDir, key, context.note) : null
  if (cached) {
    record.instructions = { ...cached.instructions, cachedFrom: { runId: cached.runId, countedAt: cached.countedAt, key: cached.key } }
    return ok()
  }
  cell.onProgress?.({ stage: 'counting instructions' })
  try {
    record.instructions = await countInstructions({
      sut: cell.sut,
      scenario: cell.scenario,
      env: sutEnv(context, cell),
      ...count,
      readyTimeoutSec: Math.max(context.readyTimeoutSec, INSTRUCTION_COUNT_READY_TIMEOUT_SEC),
      signal,
      trust: context.certificate ?? null,
      // Unpinned: what a count counts does not depend on the cpu it runs on, and counts made at once (--count-jobs, or both sides
      // of compare-commits, each making one at a time) must not be held to the same one.
      cpus: null
    })
  } catch (error) {
    if (!isDynoError(error)) throw error
    return failedWith(error)
  }
  if (signal.aborted) return failed(`interrupted by ${String(signal.reason)} while counting instructions`, 'DYNO_ERR_INTERRUPTED')
  // The system calls of the same request sequence, counted on the SUT without valgrind (count-syscalls.js says why).
  if (findStrace()) {
    cell.onProgress?.({ stage: 'counting system calls' })
    try {
      const instructions = /** @type {NonNullable<typeof record.instructions>} */ (record.instructions)
      instructions.syscalls = await countSyscalls({
        sut: cell.sut,
        scenario: cell.scenario,
        env: sutEnv(context, cell),
        ...count,
        // The same sequence of requests as the instructions' counted windows: as many before them as that count answered.
        warmupRequests: instructions.warmupRequests,
        readyTimeoutSec: Math.max(context.readyTimeoutSec, INSTRUCTION_COUNT_READY_TIMEOUT_SEC),
        signal,
        trust: context.certificate ?? null
      })
    } catch (error) {
      if (!isDynoError(error)) throw error
      return failedWith(error)
    }
  } else if (context.ci) {
    return failed(`${STRACE_MISSING}; under CI=true every count counts them`, 'DYNO_ERR_LOAD_GENERATOR')
  } else {
    record.instructions.syscalls = null
    context.note(STRACE_MISSING)
  }
  if (signal.aborted) return failed(`interrupted by ${String(signal.reason)} while counting system calls`, 'DYNO_ERR_INTERRUPTED')
  const wrong = wrongResponses(record.instructions.checks)
  if (wrong) return wrong
  if (countCacheDir && key && inputs) {
    storeCount(countCacheDir, key, { inputs, runId: context.runId, countedAt: new Date().toISOString(), instructions: record.instructions })
  }
  return ok()
}

/**
 * A count on the SUT's own host (`--sut-host`): made there by count-on-host.js, its requests from that host's loopback, never cached
 * here (the host's runtime is not this machine's).
 * @param {RunContext} context @param {Cell} cell @param {ResultRecord} record
 * @param {{ warmupRequests: number, warmupBoundRequests: number, windowRequests: number, windows: number, concurrency: number }} count
 * @returns {Promise<Outcome>}
 */
async function countedOnHost (context, cell, record, count) {
  if (cell.sut.runtime.kind !== 'node') {
    return skipped(`counts on a SUT host of its own are made for Node SUTs (${cell.sut.name} runs on ${cell.sut.runtime.kind})`)
  }
  cell.onProgress?.({ stage: `counting instructions on ${context.sutHost.name}` })
  // The spec holds the SUT's environment (DATABASE_URL, REDIS_URL and their secrets): it travels on the script's stdin, not its arguments.
  const spec = encodeCountSpec({
    sut: cell.sut.name,
    scenario: cell.scenario.name,
    env: sutEnv(context, cell),
    ...count,
    readyTimeoutSec: Math.max(context.readyTimeoutSec, INSTRUCTION_COUNT_READY_TIMEOUT_SEC),
    // Its requests come from that host, which trusts the certificate's copy there.
    trust: context.certificateOnSutHost
      ? { caFile: context.certificateOnSutHost.certFile, serverName: context.certificateOnSutHost.serverName }
      : null
  })
  const { reply, stderr, lost } = await runNodeScript(context.sutHost, 'harness/src/measures/instructions/counts/count-on-host.js', [],
    { label: `the count of ${cell.sut.name}`, signal: context.signal, stdinText: `${spec}\n` })
  if (lost) return failed(`${lost}; the figures measured before are kept`, 'DYNO_ERR_HOST_LOST')
  if (context.signal.aborted) {
    return failed(`interrupted by ${String(context.signal.reason)} while counting ` +
    'instructions', 'DYNO_ERR_INTERRUPTED')
  }
  /** @type {{ count?: InstructionCount, error?: { code: import('../../platform/errors.js').ErrorCode, message: string } } | null} */
  const answer = typeof reply?.value === 'object' ? /** @type {any} */ (reply.value) : null
  if (!answer) {
    return failed(
      `the count on ${context.sutHost.name} ended without a result; its last lines:\n${stderr.trim().split('\n').slice(-10).join('\n')}`,
      'DYNO_ERR_SUT_EXITED'
    )
  }
  if (!answer.count) return failed(`on ${context.sutHost.name}: ${answer.error?.message}`, answer.error?.code ?? 'DYNO_ERR_SUT_EXITED')
  record.instructions = answer.count
  return wrongResponses(answer.count.checks) ?? ok()
}

/**
 * What the count's own check of every response found wrong, as the run's outcome; null: every response was right.
 * @param {InstructionCount['checks']} checks @returns {Outcome | null}
 */
function wrongResponses (checks) {
  if (checks.mismatches + checks.unexpectedStatus + checks.errors === 0) return null
  return invalid(`while counting instructions: ${checks.mismatches} wrong bodies, ${checks.unexpectedStatus} unexpected statuses, ` +
    `${checks.errors} failed requests of ${checks.responses + checks.errors}`, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
}
