// @ts-check
// Why a count changed: the change of instructions per request between two counts of a cell, split by layer (each function's
// instructions with the native code it ran charged to it, function-costs.js) and by function (their own instructions), with the
// functions that appeared and vanished. A difference smaller than the comparison's own A/A threshold of the cell (the band two
// counts of the same code differ by, instruction-threshold.js) is within the noise: such a function is not listed, such a layer
// says so.
import { instructionThreshold, INSTRUCTION_THRESHOLD_FLOOR_PCT } from '../../judging/stats/instruction-threshold.js'
import { CODE_LAYERS, LAYER_LABELS } from '../../measures/instructions/counts/code-layers.js'
import { DynoError } from '../../platform/errors.js'

/**
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../../measures/instructions/counts/function-profile.js').FunctionProfile} FunctionProfile
 * @typedef {import('../../measures/instructions/counts/function-profile.js').CountedFunction} CountedFunction
 * @typedef {import('../../measures/instructions/counts/code-layers.js').LayerName} LayerName
 *
 * @typedef {object} ExplainedSide
 * @property {string} label the SUT and scenario
 * @property {string} file
 * @property {number} instructionsPerRequest
 *
 * @typedef {object} LayerChange
 * @property {LayerName} layer
 * @property {string} label
 * @property {number} baseline charged instructions per request
 * @property {number} candidate
 * @property {number} change
 * @property {number | null} shareOfChange of the whole change (null: the whole did not change)
 * @property {boolean} withinNoise smaller than the layer's own band between windows, or than the cell's threshold
 *
 * @typedef {object} FunctionChange
 * @property {CountedFunction} fn as the candidate has it (the baseline's where it vanished)
 * @property {boolean} inBaseline whether the baseline's list has it
 * @property {boolean} inCandidate
 * @property {number} baselineSelf own instructions per request (0: not in the baseline's list)
 * @property {number} candidateSelf
 * @property {number} selfChange
 * @property {number} chargedChange with the native code it ran
 *
 * @typedef {object} Explanation
 * @property {ExplainedSide} baseline
 * @property {ExplainedSide} candidate
 * @property {number} change instructions per request
 * @property {number} changePercent
 * @property {{ percent: number, perRequest: number, from: string }} noise the cell's A/A threshold, and what it is in instructions
 * @property {LayerChange[]} layers every layer, largest change first
 * @property {number} layersChange what the layers' changes add up to
 * @property {FunctionChange[]} charged the functions owning native code (JavaScript, the collector, the compilers) whose instructions
 *   with their native calls changed most beyond the noise, largest first: whose code the change is
 * @property {FunctionChange[]} functions the largest changes of own instructions beyond the noise, largest first: where it is spent
 * @property {FunctionChange[]} appeared in the candidate's list and beyond the noise, not in the baseline's where it would be kept
 * @property {FunctionChange[]} vanished
 */

/** @param {number} value */
const tenths = (value) => Math.round(value * 10) / 10

/**
 * @param {{ record: ResultRecord, file: string }} baseline @param {{ record: ResultRecord, file: string }} candidate
 * @param {{ top: number }} settings
 * @returns {Explanation}
 */
export function explainChange (baseline, candidate, { top }) {
  const before = profileOf(baseline, 'baseline')
  const after = profileOf(candidate, 'candidate')
  const beforeTotal = totalOf(baseline.record)
  const afterTotal = totalOf(candidate.record)
  const change = afterTotal - beforeTotal
  const threshold = instructionThreshold(
    { baseline: programWindows(baseline.record), candidate: programWindows(candidate.record), paired: true },
    { givenPercent: null, floorPercent: INSTRUCTION_THRESHOLD_FLOOR_PCT }
  )
  const noisePerRequest = tenths(threshold.percent / 100 * beforeTotal)
  const functions = functionChanges(before, after)
  const beyond = (/** @type {FunctionChange} */ entry) => Math.abs(entry.selfChange) >= noisePerRequest
  const whollyBeyond = (/** @type {FunctionChange} */ entry) =>
    Math.max(Math.abs(entry.selfChange), Math.abs(entry.chargedChange)) >= noisePerRequest
  return {
    baseline: sideOf(baseline, beforeTotal),
    candidate: sideOf(candidate, afterTotal),
    change: tenths(change),
    changePercent: beforeTotal > 0 ? tenths(change / beforeTotal * 1000) / 10 : 0,
    noise: { percent: threshold.percent, perRequest: noisePerRequest, from: threshold.from },
    layers: layerChanges(baseline.record, candidate.record, before, after, { change, noisePerRequest }),
    layersChange: tenths(CODE_LAYERS.reduce((sum, { name }) => sum + (after.layers[name] ?? 0) - (before.layers[name] ?? 0), 0)),
    charged: [...functions].filter((entry) => Math.abs(entry.chargedChange) >= noisePerRequest)
      .sort((a, b) => Math.abs(b.chargedChange) - Math.abs(a.chargedChange)).slice(0, top),
    functions: functions.filter((entry) => entry.inBaseline && entry.inCandidate && beyond(entry)).slice(0, top),
    appeared: functions.filter((entry) => !entry.inBaseline && whollyBeyond(entry) && keptIfThere(entry, before)).slice(0, top),
    vanished: functions.filter((entry) => !entry.inCandidate && whollyBeyond(entry) && keptIfThere(entry, after)).slice(0, top)
  }
}

/**
 * @param {{ record: ResultRecord, file: string }} sourced @param {'baseline' | 'candidate'} side
 * @returns {FunctionProfile}
 */
function profileOf ({ record, file }, side) {
  const functions = record.instructions?.functions
  if (!record.instructions) {
    throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `${side}: ${file} is not an instruction count (it was measured by ` +
      `${record.load.measure}); ` +
      'explain reads counts: `dyno run --measure instructions`')
  }
  if (!functions || functions.layers === null) {
    const why = functions?.reason ?? 'it was counted by a dyno from before functions were kept'
    throw new DynoError('DYNO_ERR_EXPLAIN_INPUT', `${side}: ${file} has no functions by layer: ${why}`)
  }
  return /** @type {FunctionProfile} */ (functions)
}

/** @param {ResultRecord} record @returns {number} instructions per request */
const totalOf = (record) => record.instructions?.instructionsPerRequest ?? 0

/** @param {ResultRecord} record @returns {number[]} the program's instructions per request, window by window (what verdicts judge) */
const programWindows = (record) =>
  (record.instructions?.windows ?? []).map((window) => window.programInstructionsPerRequest ?? window.instructionsPerRequest)

/** @param {{ record: ResultRecord, file: string }} sourced @param {number} total @returns {ExplainedSide} */
const sideOf = ({ record, file }, total) => ({
  label: `${record.sut.label ?? record.sut.name} × ${record.scenario.name}`,
  file,
  instructionsPerRequest: total
})

/**
 * @param {ResultRecord} baseline @param {ResultRecord} candidate @param {FunctionProfile} before @param {FunctionProfile} after
 * @param {{ change: number, noisePerRequest: number }} whole
 * @returns {LayerChange[]}
 */
function layerChanges (baseline, candidate, before, after, { change, noisePerRequest }) {
  return CODE_LAYERS.map(({ name }) => {
    const from = before.layers[name] ?? 0
    const to = after.layers[name] ?? 0
    const band = Math.max(noisePerRequest, layerBand(baseline, candidate, name))
    return {
      layer: name,
      label: LAYER_LABELS.get(name) ?? name,
      baseline: from,
      candidate: to,
      change: tenths(to - from),
      shareOfChange: change !== 0 ? Math.round((to - from) / change * 1000) / 10 : null,
      withinNoise: Math.abs(to - from) < band
    }
  }).sort((a, b) => Math.abs(b.change) - Math.abs(a.change))
}

/**
 * A layer's own A/A band: how far its windows' means may differ for the same code, from its spread between windows within each side
 * (a collection lands in some windows only), pooled over the two sides so that the change itself does not widen it.
 * @param {ResultRecord} baseline @param {ResultRecord} candidate @param {LayerName} name
 */
function layerBand (baseline, candidate, name) {
  const sides = [baseline, candidate].map((record) => (record.instructions?.windows ?? []).map((window) => window.layers?.[name] ?? 0))
  const df = sides.reduce((sum, values) => sum + values.length - 1, 0)
  if (sides.some((values) => values.length < 2) || df < 2) return 0
  const squares = sides.reduce((sum, values) => {
    const mean = values.reduce((total, value) => total + value, 0) / values.length
    return sum + values.reduce((total, value) => total + (value - mean) ** 2, 0)
  }, 0)
  const [before, after] = sides
  return 1.96 * Math.sqrt(squares / df * (1 / before.length + 1 / after.length))
}

/**
 * @param {FunctionProfile} before @param {FunctionProfile} after
 * @returns {FunctionChange[]} every function in either list, the largest change of own instructions first
 */
function functionChanges (before, after) {
  const beforeByKey = new Map(before.functions.map((fn) => [fn.key, fn]))
  const afterByKey = new Map(after.functions.map((fn) => [fn.key, fn]))
  const keys = new Set([...beforeByKey.keys(), ...afterByKey.keys()])
  return [...keys].map((key) => {
    const from = beforeByKey.get(key)
    const to = afterByKey.get(key)
    return {
      fn: /** @type {CountedFunction} */ (to ?? from),
      inBaseline: from !== undefined,
      inCandidate: to !== undefined,
      baselineSelf: from?.selfPerRequest ?? 0,
      candidateSelf: to?.selfPerRequest ?? 0,
      selfChange: tenths((to?.selfPerRequest ?? 0) - (from?.selfPerRequest ?? 0)),
      chargedChange: tenths((to?.chargedPerRequest ?? 0) - (from?.chargedPerRequest ?? 0))
    }
  }).sort((a, b) => Math.abs(b.selfChange) - Math.abs(a.selfChange))
}

/**
 * Whether a function missing from one side's list is missing from its code, not just below the list's bound there.
 * @param {FunctionChange} entry @param {FunctionProfile} otherSide the side it is missing from
 */
const keptIfThere = (entry, otherSide) =>
  Math.max(entry.fn.selfPerRequest, entry.fn.chargedPerRequest) > otherSide.keptAbovePerRequest
