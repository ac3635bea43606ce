// @ts-check
// Why a count changed: the change of instructions per request between two counts of a cell, split by layer (each function's
// instructions with the native code it ran charged to it, function-costs.js) and by function (their own instructions), with the
// functions that appeared and vanished. A difference smaller than the comparison's own A/A threshold of the cell (the band two
// counts of the same code differ by, instruction-threshold.js) is within the noise: such a function is not listed, such a layer
// says so.
import { instructionThreshold, INSTRUCTION_THRESHOLD_FLOOR_PCT } from '../../judging/stats/instruction-threshold.js'
import { CODE_LAYERS, LAYER_LABELS } from '../../measures/instructions/counts/code-layers.js'
import { changeTree } from './change-tree.js'
import { withMovedFunctionsPaired } from './moved-functions.js'

/**
 * @typedef {import('../../measures/instructions/counts/function-profile.js').FunctionProfile} FunctionProfile
 * @typedef {import('../../measures/instructions/counts/function-profile.js').CountedFunction} CountedFunction
 * @typedef {import('../../measures/instructions/counts/code-layers.js').LayerName} LayerName
 *
 * @typedef {object} ExplainedCount what a change is explained from, wherever the count was kept (result-count.js, a timeline's record)
 * @property {string} label the SUT and scenario
 * @property {string} file
 * @property {number} instructionsPerRequest
 * @property {number[]} programPerWindow the program's instructions per request, window by window: what verdicts judge
 * @property {(Partial<Record<LayerName, number>> | null)[]} windowLayers each window's layers (null: none known)
 * @property {FunctionProfile} profile with its list of functions
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
 * @property {number | null} movedFromLine the line it had in the baseline, where it moved within its script (moved-functions.js)
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
 * @property {import('./change-tree.js').ChangeNode} tree every kept function of both counts by layer and package (change-tree.js):
 *   the difference flame graph's boxes
 */

/** @param {number} value */
const tenths = (value) => Math.round(value * 10) / 10

/**
 * @param {ExplainedCount} baseline @param {ExplainedCount} candidate @param {{ top: number }} settings
 * @returns {Explanation}
 */
export function explainChange (baseline, candidate, { top }) {
  const after = candidate.profile
  const before = withMovedFunctionsPaired(baseline.profile, after)
  const change = candidate.instructionsPerRequest - baseline.instructionsPerRequest
  const threshold = instructionThreshold(
    { baseline: baseline.programPerWindow, candidate: candidate.programPerWindow, paired: true },
    { givenPercent: null, floorPercent: INSTRUCTION_THRESHOLD_FLOOR_PCT }
  )
  const noisePerRequest = tenths(threshold.percent / 100 * baseline.instructionsPerRequest)
  const functions = functionChanges(before, after)
  const beyond = (/** @type {FunctionChange} */ entry) => Math.abs(entry.selfChange) >= noisePerRequest
  const whollyBeyond = (/** @type {FunctionChange} */ entry) =>
    Math.max(Math.abs(entry.selfChange), Math.abs(entry.chargedChange)) >= noisePerRequest
  return {
    baseline: sideOf(baseline),
    candidate: sideOf(candidate),
    change: tenths(change),
    changePercent: baseline.instructionsPerRequest > 0 ? tenths(change / baseline.instructionsPerRequest * 1000) / 10 : 0,
    noise: { percent: threshold.percent, perRequest: noisePerRequest, from: threshold.from },
    layers: layerChanges(baseline, candidate, { change, noisePerRequest }),
    layersChange: tenths(CODE_LAYERS.reduce((sum, { name }) => sum + (after.layers[name] ?? 0) - (before.layers[name] ?? 0), 0)),
    charged: [...functions].filter((entry) => Math.abs(entry.chargedChange) >= noisePerRequest)
      .sort((a, b) => Math.abs(b.chargedChange) - Math.abs(a.chargedChange)).slice(0, top),
    functions: functions.filter((entry) => entry.inBaseline && entry.inCandidate && beyond(entry)).slice(0, top),
    appeared: functions.filter((entry) => !entry.inBaseline && whollyBeyond(entry) && keptIfThere(entry, before)).slice(0, top),
    vanished: functions.filter((entry) => !entry.inCandidate && whollyBeyond(entry) && keptIfThere(entry, after)).slice(0, top),
    tree: changeTree(before, after)
  }
}

/** @param {ExplainedCount} count @returns {ExplainedSide} */
const sideOf = ({ label, file, instructionsPerRequest }) => ({ label, file, instructionsPerRequest })

/**
 * @param {ExplainedCount} baseline @param {ExplainedCount} candidate @param {{ change: number, noisePerRequest: number }} whole
 * @returns {LayerChange[]}
 */
function layerChanges (baseline, candidate, { change, noisePerRequest }) {
  return CODE_LAYERS.map(({ name }) => {
    const from = baseline.profile.layers[name] ?? 0
    const to = candidate.profile.layers[name] ?? 0
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
 * @param {ExplainedCount} baseline @param {ExplainedCount} candidate @param {LayerName} name
 */
function layerBand (baseline, candidate, name) {
  const sides = [baseline, candidate].map((count) => count.windowLayers.map((layers) => layers?.[name] ?? 0))
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
      chargedChange: tenths((to?.chargedPerRequest ?? 0) - (from?.chargedPerRequest ?? 0)),
      movedFromLine: from && to && from.line !== to.line ? from.line : null
    }
  }).sort((a, b) => Math.abs(b.selfChange) - Math.abs(a.selfChange))
}

/**
 * Whether a function missing from one side's list is missing from its code, not just below the list's bound there.
 * @param {FunctionChange} entry @param {FunctionProfile} otherSide the side it is missing from
 */
const keptIfThere = (entry, otherSide) =>
  Math.max(entry.fn.selfPerRequest, entry.fn.chargedPerRequest) > otherSide.keptAbovePerRequest
