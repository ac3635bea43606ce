// @ts-check
// The records a timeline keeps of a run: one per result of a framework release (a variant `name@version` of an npm framework),
// counted or not, with the key it is kept under (counting-code.js, timeline-dataset.js). Results of SUTs on their own pinned
// framework, or on a checkout, are not releases and are left out.
import { measureOf } from '../../measures/index.js'
import { instructions } from '../../measures/instructions/instructions.js'
import { countSettingsFor } from '../../measures/instructions/counts/count-instructions.js'
import { countingCodeHash } from '../../measures/instructions/counts/counting-code.js'
import { WARMUP_RULE } from '../../measures/instructions/counts/count-settle.js'
import { countingIdOf, idOf } from './timeline-dataset.js'

/**
 * @typedef {import('./timeline-dataset.js').TimelineRecord} TimelineRecord
 * @typedef {import('./timeline-dataset.js').CountingSettings} CountingSettings
 */

/**
 * @param {import('../../records/read-run.js').RunData} run a run of counts
 * @param {(framework: string, version: string) => string | null} publishedAt when the registry says a release was published
 * @returns {TimelineRecord[]} in the run's order
 */
export function timelineRecordsOf (run, publishedAt) {
  return run.records.flatMap((result, position) => {
    const variant = result.sut.variant
    if (!variant || variant.kind !== 'npm' || measureOf(result) !== instructions) return []
    const key = {
      framework: result.sut.framework,
      release: variant.version,
      sut: result.sut.name,
      runtime: result.sut.runtime,
      runtimeVersion: result.sut.runtimeVersion,
      scenario: result.scenario.name,
      counting: countingOf(result)
    }
    const count = result.status === 'ok' ? result.instructions ?? null : null
    const status = count ? 'ok' : result.status === 'ok' ? 'failed' : result.status
    /** @type {TimelineRecord} */
    const record = {
      recordVersion: 1,
      id: idOf(key, status),
      key,
      publishedAt: publishedAt(result.sut.framework, variant.version),
      status,
      reason: count ? null : result.reason ?? 'the count made no figures',
      errorCode: count ? null : result.errorCode,
      measures: count ? measuresOf(count) : null,
      ...functionsOf(count),
      source: {
        runId: result.runId,
        measuredAt: result.finishedAt,
        resultFile: run.index.results[position]?.file ?? '',
        cachedFrom: count?.cachedFrom?.runId ?? null
      },
      env: {
        cpu: result.env.cpu.model,
        kernel: result.env.os.release,
        node: result.env.node,
        dyno: result.env.harnessVersion,
        commit: result.env.git.commit
      }
    }
    return [record]
  })
}

/**
 * What the count was made with, from the count itself where it was made, else (a release that was not counted) from the run's
 * settings and this dyno's counting code: the line its record is drawn on. A count without its counting code's version (made by a
 * dyno from before) has `unknown` there, a line of its own.
 * @param {import('../../records/result-record.js').ResultRecord} result @returns {CountingSettings}
 */
function countingOf (result) {
  const count = result.instructions
  if (!count) return plannedCounting(result.load, result.sut.runtimeKind)
  // A count of the settling rule names its rule and bound (its line: never the counts of the fixed rule); a count from before has
  // neither, as the records made of it before.
  const bound = count.warmup?.boundRequests
  const rule = count.warmup?.rule
  const settings = {
    warmupRequests: count.warmup?.minimumRequests ?? count.warmupRequests,
    ...(rule === undefined ? {} : { warmupRule: rule, warmupBoundRequests: Number(bound) }),
    windowRequests: count.windowRequests ?? Number(result.load.countWindowRequests),
    windows: Number(result.load.countWindows),
    concurrency: count.concurrency ?? 1,
    runtimeSettings: count.settings ?? countSettingsFor({ runtime: { kind: result.sut.runtimeKind } }),
    countingCode: count.countingCode ?? 'unknown'
  }
  return { ...settings, id: countingIdOf(settings) }
}

/**
 * The counting settings a count made now with these load settings records: what a release not counted is kept under, and what
 * a timeline looks for before it counts a release again.
 * @param {{ countWarmupRequests?: number, countWarmupBoundRequests?: number, countWindowRequests?: number, countWindows?: number }}
 *   load @param {string} runtimeKind
 * @returns {CountingSettings}
 */
export function plannedCounting (load, runtimeKind) {
  const bound = load.countWarmupBoundRequests
  const settings = {
    warmupRequests: Number(load.countWarmupRequests),
    ...(bound === undefined ? {} : { warmupRule: WARMUP_RULE, warmupBoundRequests: Number(bound) }),
    windowRequests: Number(load.countWindowRequests),
    windows: Number(load.countWindows),
    concurrency: 1,
    runtimeSettings: countSettingsFor({ runtime: { kind: runtimeKind } }),
    countingCode: countingCodeHash()
  }
  return { ...settings, id: countingIdOf(settings) }
}

/**
 * @param {import('../../measures/instructions/counts/count-instructions.js').InstructionCount} count @returns
 *   {NonNullable<TimelineRecord['measures']>}
 */
function measuresOf (count) {
  return {
    instructionsPerRequest: count.instructionsPerRequest,
    programInstructionsPerRequest: count.programInstructionsPerRequest ?? null,
    programPerWindow: count.windows.map((window) => window.programInstructionsPerRequest ?? window.instructionsPerRequest),
    syscallsPerRequest: count.syscalls ? { ...count.syscalls.perRequest } : null,
    allocatedBytesPerRequest: count.allocation?.bytesPerRequest ?? null,
    collectorInstructionsPerRequest: count.collector?.instructionsPerRequest ?? null,
    ...(count.warmup
      ? {
          warmup: {
            usedRequests: count.warmup.usedRequests,
            settled: count.warmup.settled,
            ...(count.warmup.reason ? { reason: count.warmup.reason.slice(0, 1000) } : {}),
            probeWindows: count.warmup.probeWindows.map((window) => window.programInstructionsPerRequest)
          }
        }
      : {})
  }
}

/**
 * A count's functions by layer as a record keeps them: the list in memory, in its own file once appended (timeline-dataset.js).
 * @param {import('../../measures/instructions/counts/count-instructions.js').InstructionCount | null} count
 * @returns {{ functions?: TimelineRecord['functions'] }} none: the count has none (another runtime, a dyno from before, a list lost)
 */
function functionsOf (count) {
  const profile = count?.functions
  if (!count || !profile || profile.layers === null || !Array.isArray(profile.functions)) return {}
  return {
    functions: {
      layers: profile.layers,
      windowLayers: count.windows.map((window) => window.layers ?? null),
      keptAbovePerRequest: profile.keptAbovePerRequest,
      omitted: profile.omitted,
      generatedCodeNamed: profile.generatedCodeNamed,
      functions: profile.functions
    }
  }
}
