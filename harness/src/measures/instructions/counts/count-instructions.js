// @ts-check
// Instructions per request: what a SUT's code costs, independent of how fast the machine happens to be. The SUT
// runs under callgrind with counting off while it starts and answers the warm-up requests; then counting is
// switched on and zeroed, and each of `windows` windows of `windowRequests` requests is counted on its own (send,
// dump: a dump zeroes the counters for the next window). The same keep-alive connection(s) carry every request,
// warm-up included: new connections after a long warm-up set V8 compiling again for thousands of requests. Every
// response is checked as under any load.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SIGNIFICANCE_ALPHA } from '../../../judging/stats/significance.js'
import { pairsNeeded } from '../../../judging/stats/wilcoxon-signed-rank.js'
import { DynoError } from '../../../platform/errors.js'
import { startSut } from '../../../subjects/sut-process/start-sut.js'
import { controlAll, dumpFiles, findCallgrind, readNewDumps, underCallgrind } from './callgrind.js'
import { requestSender } from './send-requests.js'
import { maskedCpuFlags, withCpuBaseline } from './cpu-baseline.js'
import { allocationEnv, makeAllocationDir, readAllocation } from './allocation-readings.js'
import { roundTo } from '../../../platform/util/numbers.js'
import { countingCodeHash } from './counting-code.js'
import { settleStop, WARMUP_RULE } from './count-settle.js'
import { functionProfile, layerContextOf, layersOf } from './function-profile.js'
import { PERF_MAP_FLAGS, removePerfMaps, v8LogFlag } from './perf-map.js'

/**
 * @typedef {{ nodeFlags: string[], env: Record<string, string>, cpuBaseline?: string }} CountSettings runtime settings of a count: flags
 *   before a Node SUT's start file (V8 flags are not allowed in NODE_OPTIONS), variables, and the cpu baseline (cpu-baseline.js) they
 *   include (none: a count of a dyno from before baselines)
 */

/**
 * Runtime settings that make a Node SUT's count repeatable without changing its code path: V8's hash and random
 * seeds fixed, its work on helper threads (concurrent marking, compilation) kept on the main thread, whose timing
 * otherwise decides how much of it lands inside a counted window, and its collections on a fixed schedule
 * (`--predictable-gc-schedule`: semi-spaces held at 4 MB, a fixed heap growth, no memory reducer). Without
 * the last, the young generation grows and shrinks with what survives, and some of express's windows held a collection
 * more than others (harness/bench/instruction-count-settings.js measures the windows with and without it). `--perf-basic-prof`
 * names V8's generated code for the count's functions (perf-map.js).
 * @type {CountSettings}
 */
export const NODE_COUNT_SETTINGS = Object.freeze({
  nodeFlags: ['--hash-seed=1', '--random-seed=1', '--single-threaded', '--predictable-gc-schedule', ...PERF_MAP_FLAGS],
  env: { UV_THREADPOOL_SIZE: '1' }
})
/**
 * A Go SUT's setting for a count: no asynchronous preemption. Go preempts a long-running goroutine with a signal
 * (SIGURG); under valgrind that signal now and then lands where the Go runtime cannot take it, and the SUT dies in
 * the middle of a count. Goroutines still yield at function calls, as before Go 1.14.
 * @type {CountSettings}
 */
export const GO_COUNT_SETTINGS = Object.freeze({ nodeFlags: [], env: { GODEBUG: 'asyncpreemptoff=1' } })
/** A SUT starts 5–20 times slower under valgrind: the ready line gets at least this long. */
export const INSTRUCTION_COUNT_READY_TIMEOUT_SEC = 120
/**
 * The count unless said otherwise. warmupRequests: a Node SUT's JIT still compiles for its first several thousand
 * requests, whose windows count several times the steady state's instructions (counted from request 2,000 on, koa and
 * fastify level off only near request 9,000). windows: two more than the fewest pairs the signed-rank test can use at the
 * default alpha, the same 6,000 requests in all: with six, one window that a collection pushed the other way kept a real 1%
 * change from being called (fastify 7/10); with eight such a window may be among the three smallest and the change is still
 * seen (fastify 10/10). Twelve windows of 500 were tried too (docs/measuring.md): windows that short vary more with the
 * scavenges in them. concurrency: one request at a time, so that every launch meets the same sequence of requests; over
 * four connections koa's launches fell into two levels 1% apart (docs/measuring.md). warmupBoundRequests: after the uncounted warm-up,
 * windows are counted until the last ones settle (count-settle.js), and at most this many requests are answered before the counted
 * windows: express on node@24 settles near request 20,000 (docs/timeline.md).
 */
export const INSTRUCTION_COUNT_DEFAULTS = Object.freeze({
  warmupRequests: 10_000, warmupBoundRequests: 40_000, windowRequests: 750, windows: pairsNeeded(SIGNIFICANCE_ALPHA) + 2, concurrency: 1
})

/** @type {CountSettings} */
const NO_SETTINGS = Object.freeze({ nodeFlags: [], env: {} })

/**
 * The runtime settings a SUT is counted with: Node's, Go's, or none, and for every runtime the cpu baseline, after a
 * GLIBC_TUNABLES the user set (cpu-baseline.js).
 * @param {{ runtime: { kind: string } }} sut
 * @returns {CountSettings}
 */
export function countSettingsFor (sut) {
  const own = sut.runtime.kind === 'node' ? NODE_COUNT_SETTINGS : sut.runtime.kind === 'go' ? GO_COUNT_SETTINGS : NO_SETTINGS
  return withCpuBaseline(own, sut.runtime.kind, process.env.GLIBC_TUNABLES)
}

/**
 * @typedef {object} WindowCollector what V8's collector did in a window (collector-split.js)
 * @property {number} instructions the collector's share of the window's instructions
 * @property {number} instructionsPerRequest
 * @property {number} readingInstructions dyno's allocation reading inside the collections (GCProfiler's callbacks): neither the
 *   collector's nor the program's
 * @property {{ scavenge: number, markCompact: number, minorMarkCompact: number, incrementalMarkingStarted: number }} collections
 *
 * @typedef {object} CountedWindow
 * @property {number} requests
 * @property {number} instructions of every process of the SUT while the window's requests were answered, dyno's own allocation
 *   reading inside collections left out (`collector.readingInstructions`): what the program and the collector did
 * @property {number} instructionsPerRequest
 * @property {number | null} programInstructionsPerRequest the instructions that were not the collector's (null: no collector data)
 * @property {WindowCollector | null} collector null: the runtime is not V8 (the count's `collector` says why)
 * @property {number | null} allocatedBytesPerRequest bytes allocated on V8's heap (null: not measured, `allocation` says why)
 * @property {{ instructionsPerRequest: number, optimisations: number, deoptimisations: number } | null} [compiler] what V8's
 *   compilers did in the window (compiler-split.js; null: the runtime is not V8; none: a count of a dyno from before)
 * @property {Partial<Record<import('./code-layers.js').LayerName, number>> | null} [layers] charged instructions per request by layer
 *   (function-costs.js; null: the runtime is not V8; none: a count of a dyno from before)
 *
 * @typedef {object} CountWarmup
 * @property {string} rule count-settle.js's WARMUP_RULE
 * @property {number} minimumRequests uncounted before the first window
 * @property {number} boundRequests the most requests answered before the counted windows
 * @property {number} usedRequests answered before the counted windows: the uncounted ones and the probe windows'
 * @property {{ programInstructionsPerRequest: number, compilerInstructionsPerRequest: number | null }[]} probeWindows the windows counted
 *   before the counted ones, in order, that had not settled
 * @property {boolean} settled whether the counted windows settled (count-settle.js)
 * @property {string} [reason] why not
 *
 * @typedef {object} InstructionCount
 * @property {'callgrind'} tool
 * @property {'toggle'} method counting switched on after the warm-up, each window zeroed and dumped
 * @property {import('./count-syscalls.js').SyscallCount | null} [syscalls] the system calls of the same request sequence, per window
 *   (null: strace is not installed here)
 * @property {number} warmupRequests answered before the counted windows, probe windows included (`warmup.usedRequests`)
 * @property {CountWarmup} [warmup] how the warm-up ended (none: a count of a dyno from before, whose warm-up was a fixed number of
 *   requests)
 * @property {number} windowRequests
 * @property {number} concurrency
 * @property {CountedWindow[]} windows in the order they were counted
 * @property {number} instructionsPerRequest over all windows
 * @property {number | null} programInstructionsPerRequest over all windows (null: no collector data)
 * @property {{ instructionsPerRequest: number, collections: WindowCollector['collections'] } | { instructionsPerRequest: null, reason:
 *   string }} collector the collector's instructions per request and its collections over all windows, or why they are not known
 * @property {{ bytesPerRequest: number } | { bytesPerRequest: null, reason: string }} allocation bytes allocated on V8's heap per request,
 *   over all windows, or why not measured
 * @property {import('./function-profile.js').FunctionProfile | { layers: null, reason: string }} [functions] the functions of a
 *   request and its layers (function-profile.js), or why not known (none: a count of a dyno from before)
 * @property {number} processes of the SUT that were counted
 * @property {CountSettings} settings what the SUT ran with for the count
 * @property {string} [countingCode] the version of dyno's counting code that made it (counting-code.js; none: a count of a dyno from
 *   before)
 * @property {{ maskedFlags: string[] | null }} cpu this machine's cpu flags that the settings' cpu baseline hides from the SUT
 *   (null: /proc/cpuinfo could not be read)
 * @property {import('./send-requests.js').RequestCounts} checks of every response, warm-up included
 * @property {{ runId: string, countedAt: string, key: string }} [cachedFrom] the count was not made again: an identical one (same key,
 *   count-cache.js) of that run was reused
 */

/** Why a runtime's count has no functions by layer: V8's generated code is named by its perf map, which only Node is asked for. */
const NO_FUNCTION_DATA = 'functions by layer are read for Node, whose generated code V8 names in a perf map; this runtime\'s are not'

/** Why a runtime's count has no collector figures: only V8's collector is known to collector-split.js. */
const NO_COLLECTOR_DATA = 'the collector is counted apart only for V8 (Node); this runtime\'s collector is in the program\'s instructions'

/**
 * @param {{ sut: import('../../../subjects/suts/resolve-subjects.js').Subject, scenario: import('@dyno/scenarios').Scenario,
 *   env: Record<string, string>, warmupRequests: number, warmupBoundRequests?: number, windowRequests: number, windows: number,
 *   concurrency: number, readyTimeoutSec: number, signal?: AbortSignal, cpus?: number[] | null, settings?: CountSettings,
 *   trust?: { caFile: string, serverName: string } | null }} plan
 *   warmupRequests: uncounted before the first window; warmupBoundRequests: the most requests answered before the counted windows,
 *   probe windows included (count-settle.js; default: warmupRequests, no probe); settings: the runtime settings of the count
 *   (default: countSettingsFor(sut), the runtime's own and the cpu baseline); trust: the run's certificate, which the requests of a
 *   scenario over TLS trust
 * @returns {Promise<InstructionCount>}
 */
export async function countInstructions ({
  sut,
  scenario,
  env,
  warmupRequests,
  warmupBoundRequests = warmupRequests,
  windowRequests,
  windows,
  concurrency,
  readyTimeoutSec,
  signal,
  cpus = null,
  settings: given,
  trust = null
}) {
  const callgrind = findCallgrind()
  if (!callgrind) {
    throw new DynoError('DYNO_ERR_LOAD_GENERATOR', 'counting instructions needs valgrind and vgdb on PATH (apt-get install valgrind)')
  }
  if (!sut.launch) throw new DynoError('DYNO_ERR_SUT_PACKAGE', `SUT ${sut.name} has no resolved launch command`)
  const node = sut.runtime.kind === 'node'
  const settings = given ?? countSettingsFor(sut)
  const outDir = mkdtempSync(join(tmpdir(), 'dyno-callgrind-'))
  const logsToV8 = node && settings.nodeFlags.some((flag) => PERF_MAP_FLAGS.includes(flag))
  const counted = {
    command: sut.launch.command, args: [...(node ? settings.nodeFlags : []), ...(logsToV8 ? [v8LogFlag(outDir)] : []), ...sut.launch.args]
  }
  // Allocation is read from inside the SUT, by a preload that runtimes honouring NODE_OPTIONS=--import take (allocation-preload.js).
  const allocationDir = sut.launch.eventLoopProbe ? makeAllocationDir(outDir) : null
  const checks = { responses: 0, mismatches: 0, unexpectedStatus: 0, errors: 0 }
  const layerContext = node ? layerContextOf(sut) : null
  /** @type {Map<string, import('./function-costs.js').FunctionCost>[]} each window's, beside `counts` */
  const windowFunctions = []
  let generatedCodeNamed = true
  /** @type {Set<number>} */
  const countedPids = new Set()
  /** @type {{ sender: import('./send-requests.js').RequestSender | null }} opened at the first send, once the SUT's port is known */
  const client = { sender: null }
  const send = async (/** @type {number} */ count) => {
    client.sender ??= requestSender({ port: running.port, scenario, concurrency, timeoutMs: 60_000, trust })
    const sent = await client.sender.send(count)
    for (const key of /** @type {const} */ (['responses', 'mismatches', 'unexpectedStatus', 'errors'])) checks[key] += sent[key]
  }
  const sutEnv = {
    ...env,
    ...settings.env,
    ...(allocationDir
      ? allocationEnv({ dir: allocationDir, inheritedNodeOptions: env.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? '' })
      : {})
  }
  const launch = underCallgrind(callgrind.valgrind, counted, outDir)
  const running = await startSut(
    { ...sut, launch: { ...launch, eventLoopProbe: false } },
    { readyTimeoutSec, stopGraceSec: 60, env: sutEnv, signal, cpus }
  )
  countedPids.add(running.pid)
  try {
    // vgdb names a process's FIFOs after the HOST and USER valgrind saw: it runs with the SUT's environment.
    const control = { vgdb: callgrind.vgdb, outDir, env: { ...process.env, HOST: '127.0.0.1', ...sutEnv } }
    // A SUT that dies under valgrind takes its FIFOs with it: name the exit and its stderr, not the missing FIFOs.
    const controlRunning = async (/** @type {'instrumentation on' | 'zero' | 'dump'} */ command) => {
      if (running.hasExited()) {
        const { code, signal: exitSignal } = await running.exited
        throw new DynoError(
          'DYNO_ERR_SUT_EXITED',
          `SUT ${sut.name} exited while its instructions were counted (exit ` +
            `${code ?? exitSignal}); ` +
            `last stderr lines:\n${running.stderr.format()}`
        )
      }
      return controlAll(control, command)
    }
    await send(warmupRequests)
    // The first reading is made before counting starts; each later one between a window's dump and the zeroing of the next,
    // so that no reading is counted (and each window's allocation includes one reading's few hundred bytes, the same in all).
    let allocatedBefore = allocationDir ? (await readAllocation(allocationDir, { group: running.pid })).allocatedBytes : null
    await controlRunning('instrumentation on')
    await controlRunning('zero')
    /** @type {CountedWindow[]} */
    const counts = []
    let processes = 0
    /** @type {import('./count-settle.js').SettleVerdict} */
    let verdict = { settled: false, reason: 'interrupted before the windows settled' }
    // Window after window until the last `windows` have settled or the bound is reached (count-settle.js): the windows before them
    // are warm-up too, kept as the probe.
    while (!signal?.aborted) {
      const stop = settleStop({ counted: counts, windows, warmupRequests, windowRequests, boundRequests: warmupBoundRequests })
      if (stop.done) {
        verdict = stop.verdict
        break
      }
      await send(windowRequests)
      const before = dumpFiles(outDir)
      const reached = await controlRunning('dump')
      const dumped = readNewDumps(outDir, before, layerContext)
      for (const pid of reached) countedPids.add(pid)
      if (dumped.functions) windowFunctions.push(dumped.functions)
      generatedCodeNamed &&= dumped.generatedCodeNamed
      if (dumped.files < reached.length) {
        throw new DynoError('DYNO_ERR_LOAD_GENERATOR', `callgrind dumped ${dumped.files} of ${reached.length} processes of ${sut.name}`)
      }
      let allocatedBytesPerRequest = null
      if (allocationDir && allocatedBefore !== null) {
        const { allocatedBytes } = await readAllocation(allocationDir, { group: running.pid })
        allocatedBytesPerRequest = roundTo((allocatedBytes - allocatedBefore) / windowRequests, 1)
        allocatedBefore = allocatedBytes
        await controlRunning('zero')
      }
      processes = Math.max(processes, dumped.files)
      const { collectorInstructions, readingInstructions, programInstructions, collections } = dumped.split
      counts.push({
        requests: windowRequests,
        instructions: dumped.instructions - readingInstructions,
        instructionsPerRequest: Math.round((dumped.instructions - readingInstructions) / windowRequests),
        programInstructionsPerRequest: node ? Math.round(programInstructions / windowRequests) : null,
        collector: node
          ? {
              instructions: collectorInstructions,
              instructionsPerRequest: Math.round(collectorInstructions / windowRequests),
              readingInstructions,
              collections
            }
          : null,
        allocatedBytesPerRequest,
        compiler: node
          ? {
              instructionsPerRequest: Math.round(dumped.compiler.compilerInstructions / windowRequests),
              optimisations: dumped.compiler.optimisations,
              deoptimisations: dumped.compiler.deoptimisations
            }
          : null,
        layers: dumped.functions ? layersOf(dumped.functions, windowRequests) : null
      })
    }
    const probe = counts.splice(0, Math.max(0, counts.length - windows))
    windowFunctions.splice(0, probe.length)
    return {
      tool: 'callgrind',
      method: 'toggle',
      warmupRequests: warmupRequests + probe.length * windowRequests,
      warmup: {
        rule: WARMUP_RULE,
        minimumRequests: warmupRequests,
        boundRequests: warmupBoundRequests,
        usedRequests: warmupRequests + probe.length * windowRequests,
        probeWindows: probe.map((window) => ({
          programInstructionsPerRequest: window.programInstructionsPerRequest ?? window.instructionsPerRequest,
          compilerInstructionsPerRequest: window.compiler?.instructionsPerRequest ?? null
        })),
        ...verdict
      },
      windowRequests,
      concurrency,
      windows: counts,
      instructionsPerRequest: perRequestOver(counts, (window) => window.instructions, windowRequests) ?? 0,
      programInstructionsPerRequest: node
        ? perRequestOver(
          counts,
          (window) => window.instructions - (window.collector?.instructions ?? 0),
          windowRequests
        )
        : null,
      collector: collectorOver(counts, windowRequests, node),
      allocation: allocationOver(counts, allocationDir !== null),
      functions: node && windowFunctions.length > 0
        ? functionProfile(windowFunctions, windowRequests, generatedCodeNamed)
        : { layers: null, reason: node ? 'no window was counted' : NO_FUNCTION_DATA },
      processes,
      settings,
      countingCode: countingCodeHash(),
      cpu: { maskedFlags: maskedCpuFlags() },
      checks
    }
  } finally {
    client.sender?.close()
    await running.stop(60_000)
    rmSync(outDir, { recursive: true, force: true })
    removePerfMaps(countedPids)
  }
}

/**
 * @param {CountedWindow[]} windows @param {(window: CountedWindow) => number} pick @param {number} windowRequests
 * @returns {number | null} the figure per request over all windows (null: no window)
 */
function perRequestOver (windows, pick, windowRequests) {
  if (windows.length === 0) return null
  return Math.round(windows.reduce((sum, window) => sum + pick(window), 0) / (windows.length * windowRequests))
}

/**
 * @param {CountedWindow[]} windows @param {number} windowRequests @param {boolean} node
 * @returns {InstructionCount['collector']}
 */
function collectorOver (windows, windowRequests, node) {
  const perRequest = perRequestOver(windows, (window) => window.collector?.instructions ?? 0, windowRequests)
  if (!node) return { instructionsPerRequest: null, reason: NO_COLLECTOR_DATA }
  if (perRequest === null) return { instructionsPerRequest: null, reason: 'no window was counted' }
  const collections = { scavenge: 0, markCompact: 0, minorMarkCompact: 0, incrementalMarkingStarted: 0 }
  for (const window of windows) {
    for (const kind of /** @type {(keyof typeof collections)[]} */ (Object.keys(collections))) {
      collections[kind] += window.collector?.collections[kind] ?? 0
    }
  }
  return { instructionsPerRequest: perRequest, collections }
}

/**
 * @param {CountedWindow[]} windows @param {boolean} read whether the SUT took the allocation preload
 * @returns {InstructionCount['allocation']}
 */
function allocationOver (windows, read) {
  if (!read) return { bytesPerRequest: null, reason: 'allocation is read by a preload that only Node takes (NODE_OPTIONS=--import)' }
  const values = windows.map((window) => window.allocatedBytesPerRequest).filter((value) => value !== null)
  if (values.length === 0) return { bytesPerRequest: null, reason: 'no window was counted' }
  return { bytesPerRequest: roundTo(values.reduce((sum, value) => sum + value, 0) / values.length, 1) }
}
