// @ts-check
// Each function's instructions in one callgrind dump, two ways: its own (exclusive, callgrind's `self`), and charged, where the native
// code a JavaScript function ran (V8's builtins and runtime, an inline cache's miss, a write to a socket) is charged to that function.
// A native function's own cost is spread over its callers by what each call into it cost, as gprof spreads a function's time, and
// passed on up until it reaches a JavaScript function, the collector or a compiler (each keeps what it is charged), or a function
// nobody called (the event loop). So the charged costs add up to the dump's whole, and a layer's share of them says whose work it was.
// dyno's own allocation reading inside collections (READING_FUNCTIONS, what it calls in the share it calls it) is left out: it is
// neither the SUT's work nor its runtime's, and its cost grows with the collections (a third of koa's whole count).
import { sharesUnderRoots } from './call-shares.js'
import { describeFunction } from './code-layers.js'
import { READING_FUNCTIONS } from './collector-split.js'

/**
 * @typedef {import('./code-layers.js').CodeFunction} CodeFunction
 * @typedef {{ fn: CodeFunction, selfInstructions: number, chargedInstructions: number }} FunctionCost
 */

/** Passes up the callers; what has not reached an owner by then stays where it is. */
const CHARGE_ROUNDS = 64
const UNRESOLVED_ADDRESS = /^0x[0-9a-f]+$/

/**
 * @param {import('./callgrind-profile.js').CallgrindProfile} profile one process's dump
 * @param {import('./perf-map.js').CodeNames | null} codeNames the process's perf map (null: generated code stays unnamed)
 * @param {import('./code-layers.js').LayerContext} context
 * @returns {Map<string, FunctionCost>} by the function's key; the charged add up to the dump's whole less dyno's reading
 */
export function functionCosts (profile, codeNames, context) {
  /** @type {Map<string, CodeFunction>} */
  const described = new Map()
  const functionOf = (/** @type {string} */ raw) => {
    let fn = described.get(raw)
    if (!fn) {
      const resolved = codeNames && UNRESOLVED_ADDRESS.test(raw) ? codeNames.nameAt(Number.parseInt(raw, 16)) ?? raw : raw
      fn = describeFunction(resolved, context)
      described.set(raw, fn)
    }
    return fn
  }
  /** @type {Map<string, FunctionCost>} */
  const costs = new Map()
  const costOf = (/** @type {CodeFunction} */ fn) => {
    let cost = costs.get(fn.key)
    if (!cost) {
      cost = { fn, selfInstructions: 0, chargedInstructions: 0 }
      costs.set(fn.key, cost)
    }
    return cost
  }
  const { shareUnder } = sharesUnderRoots(profile.arcs, (raw) => READING_FUNCTIONS.test(raw))
  const outsideReading = (/** @type {string} */ raw) => 1 - shareUnder(raw)
  for (const [raw, instructions] of profile.selfInstructions) {
    if (outsideReading(raw) > 0) costOf(functionOf(raw)).selfInstructions += instructions * outsideReading(raw)
  }
  /** @type {Map<string, Map<string, number>>} callee key → caller key → what the calls cost */
  const callers = new Map()
  for (const arc of profile.arcs) {
    const inclusive = arc.inclusiveInstructions * outsideReading(arc.caller)
    if (inclusive <= 0 || outsideReading(arc.callee) <= 0) continue
    const caller = costOf(functionOf(arc.caller))
    const callee = costOf(functionOf(arc.callee))
    if (caller.fn.key === callee.fn.key) continue
    const into = callers.get(callee.fn.key) ?? new Map()
    into.set(caller.fn.key, (into.get(caller.fn.key) ?? 0) + inclusive)
    callers.set(callee.fn.key, into)
  }
  charge(costs, callers)
  return costs
}

/** @param {CodeFunction} fn @returns {boolean} whether a function keeps what it is charged */
const owns = (fn) => fn.javascript || fn.layer === 'collector' || fn.layer === 'compiler'

/**
 * @param {Map<string, FunctionCost>} costs their charged instructions are set
 * @param {Map<string, Map<string, number>>} callers
 */
function charge (costs, callers) {
  /** @type {Map<string, number>} */
  let pending = new Map([...costs].map(([key, cost]) => [key, cost.selfInstructions]))
  for (let round = 0; round < CHARGE_ROUNDS && pending.size > 0; round++) {
    /** @type {Map<string, number>} */
    const next = new Map()
    for (const [key, instructions] of pending) {
      const cost = /** @type {FunctionCost} */ (costs.get(key))
      const into = callers.get(key)
      const weight = into ? [...into.values()].reduce((sum, value) => sum + value, 0) : 0
      if (owns(cost.fn) || !into || weight <= 0 || round === CHARGE_ROUNDS - 1) {
        cost.chargedInstructions += instructions
        continue
      }
      for (const [caller, calls] of into) next.set(caller, (next.get(caller) ?? 0) + instructions * calls / weight)
    }
    pending = next
  }
  for (const [key, instructions] of pending) /** @type {FunctionCost} */ (costs.get(key)).chargedInstructions += instructions
}
