// @ts-check
// The share of each function's cost that is spent under some roots (V8's collector, dyno's own reading), from a dump's call arcs:
// a function called both from under the roots and from elsewhere runs under them in the share of its calls' cost that came from
// callers under them, followed up the call graph as gprof spreads a function's cost over its callers. A root's share is 1.

/** Rounds of propagating the shares down the call graph; its depth below such roots is small. */
const PROPAGATION_ROUNDS = 64

/**
 * @param {import('./callgrind-profile.js').CallArc[]} arcs @param {(name: string) => boolean} isRoot
 * @returns {{ shareUnder: (name: string) => number, callsInto: Map<string, import('./callgrind-profile.js').CallArc[]> }} the share
 *   of a function's cost spent under the roots, and the calls into each function (recursive ones left out)
 */
export function sharesUnderRoots (arcs, isRoot) {
  /** @type {Map<string, import('./callgrind-profile.js').CallArc[]>} */
  const callsInto = new Map()
  for (const arc of arcs) {
    if (arc.caller === arc.callee) continue
    const into = callsInto.get(arc.callee)
    if (into) into.push(arc)
    else callsInto.set(arc.callee, [arc])
  }
  /** @type {Map<string, number>} */
  const inside = new Map()
  const shareUnder = (/** @type {string} */ name) => isRoot(name) ? 1 : inside.get(name) ?? 0
  for (let round = 0; round < PROPAGATION_ROUNDS; round++) {
    let moved = 0
    for (const [callee, into] of callsInto) {
      if (isRoot(callee)) continue
      let all = 0
      let within = 0
      for (const arc of into) {
        all += arc.inclusiveInstructions
        within += arc.inclusiveInstructions * shareUnder(arc.caller)
      }
      const share = all > 0 ? within / all : 0
      moved = Math.max(moved, Math.abs(share - (inside.get(callee) ?? 0)))
      inside.set(callee, share)
    }
    if (moved < 1e-9) break
  }
  return { shareUnder, callsInto }
}
