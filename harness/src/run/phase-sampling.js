// @ts-check
import { availableParallelism } from 'node:os'
import { DEFAULT_EVENT_LOOP_INTERVAL_MS } from '../resources/resource-defaults.js'
import { readEventLoopSamples, summarizeEventLoop } from '../resources/event-loop-samples.js'
import { phaseResourceFigures } from '../resources/resource-figures.js'
import { startResourceSampler } from '../resources/resource-sampler.js'

/**
 * Samples CPU and memory of the SUT's process group and of the load generator, one report per load
 * phase: a sampler starts with the load, and each phase the generator reports done closes its window
 * and opens the next one.
 * @param {{ phases: ('warmup' | 'measure')[], sutPgid: number, generatorPids: () => number[],
 *   sutReadGroup?: (() => import('../resources/proc-reader.js').ProcStat[]) | null }} options generatorPids: its processes now;
 *   sutReadGroup: the SUT's processes as its host reads them, when it runs on another
 */
export function samplePhases ({ phases, sutPgid, generatorPids, sutReadGroup = null }) {
  /** @type {Partial<Record<'warmup' | 'measure', import('../resources/resource-sampler.js').ResourceReport>>} */
  const reports = {}
  let index = 0
  /** @type {ReturnType<typeof startResourceSampler> | null} */
  let sampler = null
  const start = () => {
    const pids = generatorPids()
    sampler = startResourceSampler({ targets: { sut: { pgid: sutPgid, readGroup: sutReadGroup }, ...(pids.length > 0 ? { generator: { pids } } : {}) } })
  }
  const close = () => {
    if (!sampler) return
    reports[phases[index]] = sampler.stop()
    sampler = null
    index += 1
  }
  return {
    start,
    /** a phase finished: its window closes, the next one opens */
    phaseDone () {
      close()
      if (index < phases.length) start()
    },
    /** the load ended (or was cut short): the open window keeps what it sampled */
    finish () {
      close()
      return reports
    }
  }
}

/**
 * Adds to each phase summary its resources, requests per CPU second of the SUT, whether the
 * generator was the bottleneck, and the SUT's event-loop delay in that window.
 * @param {Partial<Record<'warmup' | 'measure', import('../load/load-plan.js').PhaseSummary | null>>} summaries
 * @param {Partial<Record<'warmup' | 'measure', import('../resources/resource-sampler.js').ResourceReport>>} reports
 * @param {{ generatorCpus: number[] | null, sutCpus: number[] | null, generatorThreads: number, eventLoopFile: string }} context generatorThreads: the engine's
 */
export function attachPhaseResources (summaries, reports, { generatorCpus, sutCpus, generatorThreads, eventLoopFile }) {
  const generatorCores = generatorCpus?.length ?? availableParallelism()
  for (const name of /** @type {const} */ (['warmup', 'measure'])) {
    const summary = summaries[name]
    const report = reports[name]
    if (!summary || !report) continue
    Object.assign(summary, phaseResourceFigures(report, { requests: summary.requests, generatorCores, generatorThreads, sutCores: sutCpus?.length ?? null }), {
      eventLoop: summarizeEventLoop(readEventLoopSamples(eventLoopFile, { fromMs: report.startedAtMs, toMs: report.stoppedAtMs }),
        { startedAtMs: report.startedAtMs, intervalMs: DEFAULT_EVENT_LOOP_INTERVAL_MS })
    })
  }
}
