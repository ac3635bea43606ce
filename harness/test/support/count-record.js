// @ts-check
// A count made by hand: a wall-clock result of a committed run turned into an ok callgrind count of the windows given. Tests that
// judge what dyno does with counts (merge, compare, explain, the list beside a result) start from it; none of them counts.
import { NODE_COUNT_SETTINGS } from '../../src/measures/instructions/counts/count-instructions.js'

/**
 * @param {any} record a result as written, changed in place
 * @param {number[]} perRequest each window's instructions per request (750 requests a window)
 * @param {object} [more] fields of `instructions` beside the windows (settings, cpu, functions)
 * @returns {any} the record
 */
export function asCount (record, perRequest, more = {}) {
  record.load = {
    ...record.load, measure: 'instructions', countWarmupRequests: 10_000, countWindowRequests: 750, countWindows: perRequest.length
  }
  record.summary = null
  record.instructions = {
    tool: 'callgrind',
    method: 'toggle',
    warmupRequests: 10_000,
    windowRequests: 750,
    concurrency: 1,
    windows: perRequest.map((value) => ({ requests: 750, instructions: value * 750, instructionsPerRequest: value })),
    instructionsPerRequest: Math.round(perRequest.reduce((sum, value) => sum + value, 0) / perRequest.length),
    processes: 1,
    settings: NODE_COUNT_SETTINGS,
    checks: { responses: 16_000, mismatches: 0, unexpectedStatus: 0, errors: 0 },
    ...more
  }
  return record
}
