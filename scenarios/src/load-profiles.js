// @ts-check
/**
 * The load a run applies when no option says otherwise.
 * @typedef {{ connections: number, pipelining: number, durationSec: number, warmupSec: number }} LoadProfile
 */

/** @type {Readonly<LoadProfile>} */
export const DEFAULT_LOAD = Object.freeze({
  connections: 100,
  pipelining: 1,
  durationSec: 10,
  warmupSec: 3
})
