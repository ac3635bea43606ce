// @ts-check
// What a run warns of, grouped by cause: one line each with its count (`fibonacci: 24 results failing littles-law`) and the results it
// stands for below it, which the terminal leaves to report.md and `--verbose` and report.html folds. Causes: results not ok (by status
// and error code), results that disagree with themselves (by the checks they fail, named by their scenario when they share one),
// disturbed results, cells measured again, and figures that measure the generator or the machine more than the framework.
import { remeasuredCells } from '../records/remeasured-cells.js'
import { atMachineLimit } from '../load/engines/index.js'
import { GENERATOR_BOUND_RULE } from '../platform/resources/resource-defaults.js'

/**
 * @typedef {import('../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {object} WarningGroup
 * @property {string} cause what the results have in common: a scenario, a status, `generator-bound`
 * @property {number} count the results it stands for
 * @property {string} line the group in one line, with its count
 * @property {string[]} details one line per result: which one, and what it says
 */

/** @param {ResultRecord} record @param {boolean} sweep whether the run measured several connection levels */
const cellName = (record, sweep) => `${record.sut.label ?? record.sut.name} × ${record.scenario.name}` +
  `${sweep ? ` @${record.load.connections}` : ''}${record.repeat.of > 1 ? ` (round ${record.repeat.index})` : ''}`
/** @param {number} count @param {string} noun */
const counted = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`
/** @param {ResultRecord} record */
const failedChecks = (record) => (record.consistency?.checks ?? []).filter((check) => !check.passed)

/**
 * Results grouped by a key, each group with its line and its details.
 * @param {ResultRecord[]} records @param {(record: ResultRecord) => string} key
 * @param {(records: ResultRecord[]) => { cause: string, line: string }} describe @param {(record: ResultRecord) => string} detail
 * @param {boolean} sweep whether the run measured several connection levels
 * @returns {WarningGroup[]}
 */
function groupBy (records, key, describe, detail, sweep) {
  /** @type {Map<string, ResultRecord[]>} */
  const groups = new Map()
  for (const record of records) groups.set(key(record), [...(groups.get(key(record)) ?? []), record])
  return [...groups.values()].sort((a, b) => b.length - a.length)
    .map((group) => ({
      ...describe(group),
      count: group.length,
      details: group.map((record) => `${cellName(record, sweep)}: ${detail(record)}`)
    }))
}

/** @param {ResultRecord} record @returns {string | undefined} the disturbed cell whose block it was last measured again with */
const blockCause = (record) => record.interference?.earlierAttempts.at(-1)?.withBlockOf

/**
 * @param {ResultRecord[]} records a run's results
 * @returns {WarningGroup[]} the most serious first: results not ok, then inconsistent, disturbed, measured again, generator-bound
 */
export function warningGroups (records) {
  const sweep = new Set(records.map((record) => record.load.connections)).size > 1
  const notOk = records.filter((record) => record.status !== 'ok')
  const seriousFirst = ['failed', 'invalid']
  const inconsistent = records.filter((record) => record.consistency?.passed === false)
  const disturbed = records.filter((record) => record.interference?.disturbed)
  const { remeasured, withBlock, clean: cleanAgain } = remeasuredCells(records)
  const atLimit = records.filter(atMachineLimit)
  const bound = records.filter((record) => record.summary?.generatorBound && !atMachineLimit(record))
  return [
    ...groupBy(notOk, (record) => `${record.status} ${record.errorCode ?? ''}`, (group) => ({
      cause: group[0].status,
      line: `${group[0].status}: ${counted(group.length, 'result')}${group[0].errorCode ? ` (${group[0].errorCode})` : ''}`
    }), (record) => record.reason ?? '-', sweep)
      .sort((a, b) => Number(seriousFirst.includes(b.cause)) - Number(seriousFirst.includes(a.cause))),
    ...groupBy(inconsistent, (record) => failedChecks(record).map((check) => check.name).join(', '), (group) => {
      const checks = failedChecks(group[0]).map((check) => check.name).join(', ')
      const scenarios = [...new Set(group.map((record) => record.scenario.name))]
      const failing = `failing the consistency check${failedChecks(group[0]).length > 1 ? 's' : ''} ${checks}`
      return scenarios.length === 1
        ? { cause: scenarios[0], line: `${scenarios[0]}: ${counted(group.length, 'result')} ${failing}` }
        : { cause: checks, line: `inconsistent: ${counted(group.length, 'result')} in ${scenarios.length} scenarios ${failing}` }
    }, (record) => failedChecks(record).map((check) => `${check.name}: ${check.detail}`).join('; '), sweep),
    ...(disturbed.length === 0
      ? []
      : [{
          cause: 'disturbed',
          count: disturbed.length,
          line: `disturbed: ${counted(disturbed.length, 'result')} measured while other processes or the hypervisor took more than ` +
            `${disturbed[0].interference?.thresholdPct} % of the SUT's or the generator's cpus`,
          details: disturbed.map((record) => `${cellName(record, sweep)}: ${record.interference?.detail}`)
        }]),
    ...(remeasured.length === 0
      ? []
      : [{
          cause: 'measured again',
          count: remeasured.length,
          line: `measured again: ${counted(remeasured.length - withBlock, 'cell')} disturbed at first` +
            `${withBlock > 0 ? ` and ${withBlock} with their block` : ''}, ${cleanAgain} clean the next time`,
          details: remeasured.map((record) => `${cellName(record, sweep)}: ` +
            `${counted(record.interference?.earlierAttempts.length ?? 0, 'earlier attempt')}` +
            `${record.interference?.disturbed ? ', still disturbed' : ', clean'}` +
            `${blockCause(record) ? ` (with the block of ${blockCause(record)})` : ''}`)
        }]),
    ...(bound.length === 0
      ? []
      : [{
          cause: 'generator-bound',
          count: bound.length,
          line: `generator-bound: ${counted(bound.length, 'result')} measuring the load generator more than the framework`,
          details: [`rule: ${GENERATOR_BOUND_RULE}`, ...bound.map((record) => `${cellName(record, sweep)}: generator-bound`)]
        }]),
    ...(atLimit.length === 0
      ? []
      : [{
          cause: 'limit of this machine',
          count: atLimit.length,
          line: `limit of this machine: ${counted(atLimit.length, 'result')} where the native engine, the fastest here, ` +
            'was generator-bound',
          details: atLimit.map((record) => `${cellName(record, sweep)}: the SUT may be faster than this machine can show`)
        }])
  ]
}
