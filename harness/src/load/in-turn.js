// @ts-check
// A service's drawn requests (the plan's `inTurn`) as one of several senders sends them: all of them in turn, from the start of its
// own share on, so that senders that each send a part of the load still reach every one.

/**
 * @template T
 * @param {T[]} drawn
 * @param {number} index this sender's number, from 0
 * @param {number} of how many senders share the load
 * @returns {T[]} the requests from the `index`-th share on, round to the one before it
 */
export function fromOwnShare (drawn, index, of) {
  const start = Math.floor((index % of) * drawn.length / of)
  return [...drawn.slice(start), ...drawn.slice(0, start)]
}
