// @ts-check
// The runtime events of one SUT process, from its launch to its stop: the source its runtime has (runtime-event-sources.js), switched on
// for this process in a directory of its own, or the reason there is none. Each phase of each cell it serves reads its part.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runtimeEventSourceFor } from './runtime-event-sources.js'
import { noRuntimeEvents, phaseRuntimeEvents } from './phase-runtime-events.js'
import { startThreadCpuSampler } from './thread-cpu-sampler.js'

/**
 * @typedef {object} RuntimeEventRecording
 * @property {string[]} args runtime flags for the SUT's launch
 * @property {Record<string, string>} env
 * @property {number | null} eventLoopIntervalMs the event-loop probe's interval the source wants; null: the default
 * @property {((chunk: Buffer) => void) | null} onStderr
 * @property {(epochMs: number) => void} launched the moment before the SUT is launched
 * @property {(process: { pid: number, sharesProcesses: boolean, workers: number }) => void} started the SUT is up: its process, whether it
 *   runs here, and how many worker processes serve (`--workers`)
 * @property {(phase: { startedAtMs: number, windows: { startMs: number, durationMs: number }[],
 *   eventLoopSamples: import('../../platform/resources/event-loop-samples.js').EventLoopSample[] }) =>
 *   import('./phase-runtime-events.js').PhaseRuntimeEvents} readPhase
 * @property {() => void} close removes what the runtime wrote (after the SUT's exit)
 */

/**
 * @param {{ runtimeKind: string, enabled: boolean, windowMs: number, host: { name: string, sharesFilesystem: boolean } }} options
 *   enabled: the run collects runtime events (`--runtime-events on`, or the sustained profile)
 * @returns {RuntimeEventRecording}
 */
export function recordRuntimeEvents ({ runtimeKind, enabled, windowMs, host }) {
  const source = runtimeEventSourceFor(runtimeKind)
  const reason = !enabled
    ? 'not collected: the run had `--runtime-events off` (the sustained profile turns it on)'
    : source.unavailable ?? (source.needsSharedFilesystem && !host.sharesFilesystem
      ? `the SUT ran on ${host.name}, and its runtime writes its events to files there, which this machine does not read`
      : null)
  if (reason !== null) {
    return {
      args: [],
      env: {},
      eventLoopIntervalMs: null,
      onStderr: null,
      launched () {},
      started () {},
      readPhase: () => noRuntimeEvents(reason),
      close () {}
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'dyno-runtime-events-'))
  const probe = source.prepare({ dir, windowMs, inheritedNodeOptions: process.env.NODE_OPTIONS ?? '' })
  /** @type {ReturnType<typeof startThreadCpuSampler> | null} */
  let threads = null
  return {
    args: probe.args,
    env: probe.env,
    eventLoopIntervalMs: probe.eventLoopIntervalMs,
    onStderr: probe.onStderr,
    launched: probe.launched,
    started ({ pid, sharesProcesses, workers }) {
      // /proc of this machine: the threads of a SUT on another host are not read; nor those of a SUT whose workers serve in processes
      // of their own, where the process launched does not serve.
      if (source.threadCpu && sharesProcesses && workers === 1) threads = startThreadCpuSampler({ pid, intervalMs: windowMs })
    },
    readPhase: ({ startedAtMs, windows, eventLoopSamples }) => phaseRuntimeEvents(source, probe.collect(), {
      startedAtMs, windows, eventLoopSamples, eventLoopIntervalMs: probe.eventLoopIntervalMs, threadCpuSamples: threads?.samples() ?? null
    }),
    close () {
      threads?.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
