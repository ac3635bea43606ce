// @ts-check
// What the SUT and the load generator used in each phase of a load, and what other processes took of their cpus: one window per
// phase, and each phase's summary given its figures.
import { availableParallelism } from 'node:os'
import { DEFAULT_EVENT_LOOP_INTERVAL_MS } from '../platform/resources/resource-defaults.js'
import { readEventLoopSamples, summarizeEventLoop } from '../platform/resources/event-loop-samples.js'
import { phaseResourceFigures } from '../platform/resources/resource-figures.js'
import { startResourceSampler } from '../platform/resources/resource-sampler.js'
import { startInterferenceSampler } from '../platform/resources/interference-sampler.js'
import { sutCgroupCpu } from '../platform/resources/sut-cgroup.js'

/**
 * @typedef {object} PhaseReport what was sampled in one phase's window
 * @property {import('../platform/resources/resource-sampler.js').ResourceReport} resources
 * @property {import('../platform/resources/interference-sampler.js').InterferenceReport | null} interference null: /proc/stat cannot be
 *   read here
 * @property {number | null} cgroupCpuSec what the SUT's own cgroup used in the window; null: it has none of its own (its cpu is read
 *   from /proc)
 * @property {import('../platform/resources/speed-probe/speed-probe.js').SpeedReading | null} speed how fast the SUT's cpus ran in the
 *   window; null: no probe watched them, or it read nothing
 *
 * @typedef {object} PhaseProbes what watches the SUT from outside its code (a cell's SutProbes)
 * @property {string} eventLoopFile where the event-loop preload writes
 * @property {number | undefined} eventLoopIntervalMs its interval; undefined: the default
 * @property {import('../subjects/runtime-events/runtime-event-recording.js').RuntimeEventRecording} runtimeEvents
 *
 * @typedef {object} PhaseSampling the SUT sampled in each phase, beside the load generator
 * @property {number} sutPgid its process group
 * @property {(() => import('../platform/process/proc-reader.js').ProcStat[]) | null} sutReadGroup its processes as its host reads them,
 *   when it runs on another; null: read here
 * @property {boolean} sutHere it runs on this machine (not on a `--sut-host`)
 * @property {number[] | null} sutCpus
 * @property {boolean} censusArgs other processes named by their arguments too (`--census-args on`)
 * @property {number} [interferenceIntervalMs] the interference sampler's window; absent: its default
 * @property {PhaseProbes | null} probes what watched it; null: nothing did (a calibration's SUT)
 * @property {import('../platform/resources/speed-probe/speed-probe.js').SpeedProbe | null} [speedProbe] the run's probe of its cpus'
 *   speed, on while a phase is sampled; null or absent: none (the SUT is not pinned here)
 */

/**
 * Samples CPU and memory of the SUT's process group and of the load generator, and what other processes took of their cpus, one
 * report per load phase: samplers start with the load, and each phase the generator reports done closes its window and opens the
 * next one.
 * @param {PhaseSampling} sampling
 * @param {{ phases: ('warmup' | 'measure')[], generatorPids: () => number[], generatorCpus: number[] | null }} load generatorPids: its
 *   processes now
 */
export function samplePhases (sampling, { phases, generatorPids, generatorCpus }) {
  const { sutPgid, sutReadGroup, sutHere, sutCpus, censusArgs, interferenceIntervalMs, speedProbe = null } = sampling
  /** @type {Partial<Record<'warmup' | 'measure', PhaseReport>>} */
  const reports = {}
  let index = 0
  /** @type {{ resources: ReturnType<typeof startResourceSampler>, interference: ReturnType<typeof startInterferenceSampler>,
   *   cgroupStartUs: number | null } | null} */
  let samplers = null
  // A SUT on another host is read through its host's /proc.
  const cgroupUs = sutHere ? sutCgroupCpu(sutPgid) : null
  const start = () => {
    speedProbe?.resume()
    const pids = generatorPids()
    samplers = {
      cgroupStartUs: cgroupUs?.() ?? null,
      resources: startResourceSampler({
        targets: { sut: { pgid: sutPgid, readGroup: sutReadGroup }, ...(pids.length > 0 ? { generator: { pids } } : {}) }
      }),
      interference: startInterferenceSampler({ sutCpus, generatorCpus, sutHere, sutPgid, generatorPids },
        { censusArgs, ...(interferenceIntervalMs ? { intervalMs: interferenceIntervalMs } : {}) })
    }
  }
  const close = () => {
    if (!samplers) return
    const resources = samplers.resources.stop()
    const endUs = samplers.cgroupStartUs === null ? null : cgroupUs?.() ?? null
    const cgroupCpuSec = endUs === null || samplers.cgroupStartUs === null ? null : (endUs - samplers.cgroupStartUs) / 1e6
    const speed = speedProbe?.readingOf({ fromMs: resources.startedAtMs, toMs: resources.stoppedAtMs }) ?? null
    reports[phases[index]] = { resources, interference: samplers.interference?.stop() ?? null, cgroupCpuSec, speed }
    samplers = null
    index += 1
  }
  return {
    start,
    /** a phase finished: its window closes, the next one opens */
    phaseDone () {
      close()
      if (index < phases.length) start()
    },
    /**
     * the engine started the phase's clock once its connections were up: the phase's window starts again here, the connecting (its
     * handshakes' cpu) left out as the engine leaves it out of the phase's requests and time
     */
    clockStarted () {
      if (!samplers) return
      samplers.resources.stop()
      samplers.interference?.stop()
      start()
    },
    /** the load ended (or was cut short): the open window keeps what it sampled */
    finish () {
      close()
      speedProbe?.pause()
      return reports
    }
  }
}

/**
 * Adds to each phase summary its resources, requests per CPU second of the SUT, whether the generator was the bottleneck and what other
 * processes took of the cpus; and, where probes watched the SUT, its event-loop delay in that window and what its runtime did in each of
 * its windows.
 * @param {Partial<Record<'warmup' | 'measure', import('./load-plan.js').PhaseSummary | null>>} summaries
 * @param {Partial<Record<'warmup' | 'measure', PhaseReport>>} reports
 * @param {{ generatorCpus: number[] | null, sutCpus: number[] | null, generatorThreads: number, probes: PhaseProbes | null }} context
 *   generatorThreads: the engine's; probes null: nothing watched the SUT (a calibration's)
 */
export function attachPhaseResources (summaries, reports, { generatorCpus, sutCpus, generatorThreads, probes }) {
  const generatorCores = generatorCpus?.length ?? availableParallelism()
  for (const name of /** @type {const} */ (['warmup', 'measure'])) {
    const summary = summaries[name]
    const sampled = reports[name]
    if (!summary || !sampled) continue
    const report = sampled.resources
    Object.assign(
      summary,
      phaseResourceFigures(report, {
        requests: summary.requests,
        generatorCores,
        generatorThreads,
        sutCores: sutCpus?.length ?? null,
        sutHostCores: availableParallelism(),
        cgroupCpuSec: sampled.cgroupCpuSec,
        speed: sampled.speed
      }),
      { interference: sampled.interference },
      probes ? probedFigures(summary, report, probes) : {}
    )
  }
}

/**
 * The SUT's event-loop delay over a phase's window, and what its runtime did in each of the phase's windows.
 * @param {import('./load-plan.js').PhaseSummary} summary
 * @param {import('../platform/resources/resource-sampler.js').ResourceReport} report the window's
 * @param {PhaseProbes} probes
 */
function probedFigures (summary, report, probes) {
  const intervalMs = probes.eventLoopIntervalMs ?? DEFAULT_EVENT_LOOP_INTERVAL_MS
  const eventLoopSamples = readEventLoopSamples(probes.eventLoopFile, { fromMs: report.startedAtMs, toMs: report.stoppedAtMs })
  return {
    eventLoop: summarizeEventLoop(eventLoopSamples, { startedAtMs: report.startedAtMs, intervalMs }),
    runtimeEvents: probes.runtimeEvents.readPhase({ startedAtMs: report.startedAtMs, windows: summary.timeseries ?? [], eventLoopSamples })
  }
}
