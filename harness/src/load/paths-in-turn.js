// @ts-check
// A service's generated paths (the plan's `paths`) as one of several senders sends them: all of them in turn, from the start of its
// own share on, so that senders that each send a part of the load still reach every path.

/**
 * @param {string[]} paths
 * @param {number} index this sender's number, from 0
 * @param {number} of how many senders share the load
 * @returns {string[]} the paths from the `index`-th share on, round to the one before it
 */
export function pathsInTurn (paths, index, of) {
  const start = Math.floor((index % of) * paths.length / of)
  return [...paths.slice(start), ...paths.slice(0, start)]
}
