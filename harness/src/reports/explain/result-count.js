// @ts-check
// What explaining a change reads of a result: its count's whole, its windows and its functions, or why it cannot be explained.
import { DynoError } from '../../platform/errors.js'

/**
 * @param {{ record: import('../../records/result-record.js').ResultRecord, file: string }} sourced
 * @param {'baseline' | 'candidate'} side
 * @returns {import('./explain-change.js').ExplainedCount}
 * @throws {DynoError} DYNO_ERR_EXPLAIN_INPUT when it is not a count, or a count without its functions
 */
export function countOfResult ({ record, file }, side) {
  const count = record.instructions
  if (!count) {
    throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `${side}: ${file} is not an instruction count (it was measured by ` +
      `${record.load.measure}); explain reads counts: \`dyno run --measure instructions\``)
  }
  const profile = count.functions
  if (!profile || profile.layers === null) {
    const why = profile?.reason ?? 'it was counted by a dyno from before functions were kept'
    throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `${side}: ${file} has no functions by layer: ${why}`)
  }
  if (!Array.isArray(profile.functions)) {
    throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `${side}: ${file} has lost its function list: ${profile.listProblem ?? 'it has none'}`)
  }
  return {
    label: `${record.sut.label ?? record.sut.name} × ${record.scenario.name}`,
    file,
    instructionsPerRequest: count.instructionsPerRequest,
    programPerWindow: count.windows.map((window) => window.programInstructionsPerRequest ?? window.instructionsPerRequest),
    windowLayers: count.windows.map((window) => window.layers ?? null),
    profile
  }
}
