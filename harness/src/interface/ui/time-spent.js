// @ts-check
// Where a run's time went, in one line: the stages its runs recorded (result-record.js: stagesMs), summed, and what was
// spent outside them (building, services, the engine's choice, writing).

/** @type {import('../../records/result-record.js').Stage[]} */
const STAGES = ['start', 'launchWarmup', 'verify', 'load', 'count', 'stop']

/**
 * @param {import('../../records/result-record.js').ResultRecord[]} records
 * @param {number} wallMs from the command's start to its end
 * @returns {string}
 */
export function formatTimeSpent (records, wallMs) {
  const totals = STAGES.map((stage) => [stage, records.reduce((sum, record) => sum + (record.stagesMs?.[stage] ?? 0), 0)])
    .filter(([, ms]) => Number(ms) > 0)
  const inStages = totals.reduce((sum, [, ms]) => sum + Number(ms), 0)
  const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`
  return `time: ${seconds(wallMs)} for ${records.length} run${records.length === 1 ? '' : 's'}: ` +
    `${totals.map(([stage, ms]) => `${stage} ${seconds(Number(ms))}`).join(', ')}, other ${seconds(Math.max(0, wallMs - inStages))}`
}
