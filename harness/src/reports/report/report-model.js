// @ts-check
// What report.html shows of every run whatever it measured, computed from the result files: its title, the runs' environments, every run
// that is not ok or disagrees with itself, and the measure's own sections (measure.report.html). The page only draws; every number in it
// comes from here and from the measure.
import { describeHosts } from './hosts-summary.js'
import { mergedPartsLine, mixedMachinesNote } from './merged-run.js'
import { runLabels } from '../../records/run-labels.js'
import { loadTimesText } from '../../measures/load-settings.js'

/**
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {object} ReportModel
 * @property {string} title
 * @property {{ label: string, runId: string, dir: string, status: string, env: any, options: any, engine: string | null, load: string,
 *   hosts: ReturnType<typeof describeHosts>,
 *   runtimes: string, pinning: string, parts: string | null }[]} runs parts: a merged run's parts
 * @property {unknown[]} scenarios the measure's model of each scenario, which its drawing script reads
 * @property {string | null} mixedMachines a run merged from parts of machines that differ: what every table and chart says of it
 * @property {{ run: string, sut: string, scenario: string, connections: number, repeat: string, status: string, errorCode: string | null,
 *   reason: string }[]} problems
 */

/**
 * @param {import('../../records/read-run.js').RunData[]} runs
 * @param {unknown[]} scenarios the measure's model of each scenario (measure.report.html)
 * @returns {ReportModel}
 */
export function reportModel (runs, scenarios) {
  const labels = runLabels(runs)
  const sideBySide = runs.length > 1
  /** @type {{ runLabel: string, run: import('../../records/read-run.js').RunData, record: ResultRecord }[]} */
  const entries = runs.flatMap((run, index) => run.records.map((record) => ({ runLabel: labels[index], run, record })))
  return {
    title: sideBySide ? `dyno: ${labels.join(' vs ')}` : `dyno run ${runs[0].index.runId}`,
    runs: runs.map((run, index) => describeRun(run, labels[index])),
    mixedMachines:
      runs
        .map((run, index) => {
          const note = mixedMachinesNote(run.index)
          return note && sideBySide ? `${labels[index]}: ${note}` : note
        })
        .filter((note) => note !== null)
        .join(' ') || null,
    scenarios,
    problems: entries
      .filter(({ record }) => record.status !== 'ok' || record.consistency?.passed === false || record.interference?.disturbed)
      .map(({ runLabel, record }) => ({
        run: runLabel,
        sut: record.sut.label ?? record.sut.name,
        scenario: record.scenario.name,
        connections: record.load.connections,
        repeat: `${record.repeat.index}/${record.repeat.of}`,
        status: [
          record.status,
          record.interference?.disturbed ? 'disturbed' : null,
          record.consistency?.passed === false ? 'inconsistent' : null
        ]
          .filter(Boolean)
          .join(', '),
        errorCode: record.errorCode,
        reason: [
          record.reason,
          record.interference?.disturbed ? `disturbed: ${record.interference.detail}` : null,
          ...(record.consistency?.checks ?? []).filter((check) => !check.passed).map((check) => `${check.name}: ${check.detail}`)
        ]
          .filter(Boolean)
          .join('; ')
      }))
  }
}

/** @param {import('../../records/read-run.js').RunData} run @param {string} label */
function describeRun (run, label) {
  const first = run.records[0]
  const pinning = first?.load.pinning
  return {
    label,
    runId: run.index.runId,
    dir: run.dir,
    status: run.index.status,
    env: run.index.env,
    options: run.index.options,
    engine: first ? `${first.load.engine} ${first.load.engineVersion}` : null,
    load: first
      ? `connections ${[...new Set(run.records.map((record) => record.load.connections))].sort((a, b) => a - b).join(', ')}, ` +
        `${loadTimesText(first.load)}, ${first.repeat.of} repeat${first.repeat.of > 1 ? 's' : ''}` +
        `${first.load.ratePerSec ? `, open model ${first.load.ratePerSec} req/s` : ''}` +
        `${run.index.options?.profile ? `, profile ${run.index.options.profile}` : ''}`
      : '-',
    runtimes: [
      ...new Set(run.records.map((record) => `${record.sut.runtime}${record.sut.runtimeVersion ? ` ${record.sut.runtimeVersion}` : ''}`))
    ].join(', '),
    hosts: describeHosts(run.index.env, run.records),
    parts: mergedPartsLine(run.index),
    pinning: pinning
      ? pinning.pinned
        ? `SUT cpu ${pinning.sutCpus?.join(',')}, generator cpu ${pinning.generatorCpus?.join(',')}`
        : `off (${pinning.reason})`
      : '-'
  }
}
