// @ts-check
// What one callgrind dump says per function: each function's own instructions, and each call from one function to
// another with the instructions spent inside it (callgrind's `calls=` lines carry the callee's inclusive cost of those
// calls). Only the `Ir` event is read (a count records nothing else). The format: valgrind's docs/cl-format.html;
// names are compressed (`fn=(12) name` once, `fn=(12)` after), and a cost line is a position followed by the cost.

/**
 * @typedef {object} CallArc the calls from one function to another within a dump
 * @property {string} caller
 * @property {string} callee
 * @property {number} calls
 * @property {number} inclusiveInstructions what the callee and everything it called cost in those calls
 *
 * @typedef {object} CallgrindProfile
 * @property {number} instructions the dump's total
 * @property {Map<string, number>} selfInstructions per function
 * @property {CallArc[]} arcs one per caller and callee (calls from different call sites added up)
 */

/** The last number of a cost line is its Ir (positions come first; `events: Ir` is the only event). */
const COST_LINE = /^[-+*\d]/

/**
 * @param {string} text a callgrind.out file
 * @returns {CallgrindProfile}
 */
export function parseCallgrindDump (text) {
  /** @type {Map<string, string>} compressed id → name */
  const names = new Map()
  /** @type {Map<string, number>} */
  const selfInstructions = new Map()
  /** @type {Map<string, CallArc>} */
  const arcs = new Map()
  let instructions = 0
  let fn = ''
  let callee = ''
  let pendingCalls = 0
  let inCall = false

  const named = (/** @type {string} */ field) => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(field)
    if (!match) return field
    if (match[2] !== undefined) names.set(match[1], match[2])
    return names.get(match[1]) ?? field
  }

  for (const line of text.split('\n')) {
    if (COST_LINE.test(line)) {
      const fields = line.trim().split(/\s+/)
      const cost = Number(fields[fields.length - 1])
      if (!Number.isFinite(cost) || fields.length < 2) continue
      if (inCall) {
        const key = `${fn}\u0000${callee}`
        const arc = arcs.get(key) ?? { caller: fn, callee, calls: 0, inclusiveInstructions: 0 }
        arc.calls += pendingCalls
        arc.inclusiveInstructions += cost
        arcs.set(key, arc)
        inCall = false
        pendingCalls = 0
      } else {
        selfInstructions.set(fn, (selfInstructions.get(fn) ?? 0) + cost)
      }
    } else if (line.startsWith('fn=')) {
      fn = named(line.slice(3))
    } else if (line.startsWith('cfn=')) {
      callee = named(line.slice(4))
    } else if (line.startsWith('calls=')) {
      pendingCalls = Number(line.slice(6).trim().split(/\s+/)[0]) || 0
      inCall = true
    } else if (line.startsWith('summary:') || line.startsWith('totals:')) {
      instructions = Number(line.slice(line.indexOf(':') + 1).trim().split(/\s+/)[0]) || instructions
    }
  }
  return { instructions, selfInstructions, arcs: [...arcs.values()] }
}
