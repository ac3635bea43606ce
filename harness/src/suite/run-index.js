// @ts-check
// run.json, a run's index, and the records it lists: written when the run starts, again the moment each cell's record is written, and
// once more when the run ends, so that a crash or a Ctrl-C later in the run loses nothing already measured.
import { join } from 'node:path'
import { SCHEMA_VERSION } from '../platform/defaults.js'
import { RUN_INDEX_FILE } from '../records/run-layout.js'
import { writeJsonAtomic } from '../records/write-json-atomic.js'
import { writeResultFile } from '../records/function-list-file.js'
import { plannedEntry } from './plan/plan-parts.js'

/**
 * @typedef {import('../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('./plan/plan-runs.js').PlannedRun} PlannedRun
 *
 * @typedef {object} ResultEntry a cell's line in run.json
 * @property {string} file @property {string} sut @property {string} runtime @property {string} scenario
 * @property {number} connections @property {number} repeat @property {string} status @property {string | null} reason
 *
 * @typedef {object} Remeasured what run.json says of the cells measured again (remeasure.js)
 * @property {number} disturbedAbovePct @property {number} cells measured again at least once @property {number} limit of re-measurements
 * @property {number} stillDisturbed kept disturbed, measured again or not
 * @property {number | undefined} leftForTime not measured again, the plan's time being spent
 *
 * @typedef {object} RunIndex
 * @property {Remeasured} remeasured filled in as the run goes, written with the next write
 * @property {(described: Record<string, Record<string, unknown>>) => void} servicesStarted adds the services, as they were started, to
 *   the environment every record shares, and writes
 * @property {(quietCheck: import('./quiet-check.js').QuietCheck) => void} lookedBefore keeps what the machine looked like before the
 *   first cell, and writes
 * @property {(position: number, record: ResultRecord) => void} keep writes a cell's record, then run.json listing it (a re-measurement
 *   replaces the cell's file and its line)
 * @property {() => [number, ResultRecord][]} kept the record kept of each cell written so far, by its place in the plan
 * @property {() => ResultRecord[]} records the records kept, in the plan's order
 * @property {(end: { aggregatesFile: string, interrupted: boolean }) => void} finish writes how the run ended
 */

/**
 * What run.json records of a run's options: every one as given or defaulted, each host as the user named it, and where its processes
 * were pinned.
 * @param {import('./prepare-run.js').RunSetup} setup @returns {Record<string, unknown>}
 */
const recordedOptions = ({ options, loadHosts, pinning }) => ({
  ...options,
  sutHost: options.sutHost?.url ?? null,
  loadHosts: loadHosts?.map(({ host, cpus }) => ({ name: host.name, address: host.address, cpus })) ?? null,
  pinning
})

/**
 * Writes run.json of a run that starts now.
 * @param {string} runDir
 * @param {{ runId: string, env: ResultRecord['env'], plan: PlannedRun[], planRecord: ReturnType<typeof import('./plan/plan-parts.js')
 *   .planRecord>, setup: import('./prepare-run.js').RunSetup }} run plan: the cells this run carries out, in order
 * @returns {RunIndex}
 */
export function openRunIndex (runDir, { runId, env, plan, planRecord, setup }) {
  const index = {
    schemaVersion: SCHEMA_VERSION,
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: /** @type {string | null} */ (null),
    status: /** @type {'running' | 'complete' | 'interrupted'} */ ('running'),
    options: recordedOptions(setup),
    engineChoice: setup.engineChoice,
    seed: setup.options.seed,
    env,
    plan: planRecord,
    planned: plan.map(plannedEntry),
    results: /** @type {ResultEntry[]} */ ([]),
    aggregatesFile: /** @type {string | null} */ (null),
    /** @type {import('./quiet-check.js').QuietCheck | null} */
    quietCheck: null,
    noisePlan: setup.noisePlan ?? null,
    rankBy: setup.rankBy,
    /** @type {Remeasured} */
    remeasured: { disturbedAbovePct: setup.options.disturbedAbovePct, cells: 0, limit: 0, stillDisturbed: 0, leftForTime: undefined }
  }
  const path = join(runDir, RUN_INDEX_FILE)
  const save = () => writeJsonAtomic(path, index)
  const positionOf = new Map(plan.map((planned, position) => [planned.file, position]))
  /** @type {Map<number, ResultRecord>} */
  const kept = new Map()
  save()
  return {
    remeasured: index.remeasured,
    servicesStarted (described) {
      env.services = described
      save()
    },
    lookedBefore (quietCheck) {
      index.quietCheck = quietCheck
      save()
    },
    keep (position, record) {
      const planned = plan[position]
      writeResultFile(join(runDir, planned.file), record)
      kept.set(position, record)
      listResult(index.results, entryOf(planned, record), (file) => positionOf.get(file) ?? 0, position)
      index.remeasured.stillDisturbed = [...kept.values()].filter((one) => one.interference?.disturbed).length
      save()
    },
    kept: () => [...kept],
    records: () => [...kept].sort((a, b) => a[0] - b[0]).map(([, record]) => record),
    finish ({ aggregatesFile, interrupted }) {
      index.aggregatesFile = aggregatesFile
      index.status = interrupted ? 'interrupted' : 'complete'
      index.finishedAt = new Date().toISOString()
      save()
    }
  }
}

/** @param {PlannedRun} planned @param {ResultRecord} record @returns {ResultEntry} */
const entryOf = ({ sut, scenario, connections, repeat, file }, { status, reason }) =>
  ({ file, sut: sut.label, runtime: sut.runtime.name, scenario: scenario.name, connections, repeat, status, reason })

/**
 * Puts a cell's line in its place: in the plan's order, whichever of `--count-jobs` counts ends first; a cell listed already is replaced.
 * @param {ResultEntry[]} results @param {ResultEntry} entry @param {(file: string) => number} positionOf @param {number} position
 */
function listResult (results, entry, positionOf, position) {
  const at = results.findIndex((listed) => listed.file === entry.file)
  if (at !== -1) results[at] = entry
  else {
    const after = results.findIndex((listed) => positionOf(listed.file) > position)
    results.splice(after === -1 ? results.length : after, 0, entry)
  }
}
