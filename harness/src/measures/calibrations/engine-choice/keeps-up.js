// @ts-check
// Whether an engine kept up with the ceiling SUT at one connection level of the engine calibration. Two signs, either enough
// to say it did not: its own cpu share (the generator-bound rule every cell is judged by), and its rate beside the fastest engine's
// against the same SUT a few seconds apart. The share alone fails on a shared machine: where other programs or the hypervisor take
// the engine's cpu, it cannot reach the share that marks it bound, however far behind it is (autocannon drove uwebsockets at
// 21,696 req/s using 55 % of its cpu, beside the native engine's 65,712, and was chosen: 93 cells of that default run were then
// generator-bound). Both engines measure one SUT, so the SUT's pace is the same for both: an engine that keeps up reaches it.

/**
 * The least share of the fastest engine's rate an engine that keeps up reaches. Both are 3-second means of one SUT taken a few
 * seconds apart, which a stolen machine moves by a tenth or two each; a fifth below the fastest is past that, and a run that then
 * takes the fastest engine measures every cell with a client that keeps up, so a close call costs nothing but the preference.
 */
export const KEEPS_UP_SHARE_OF_FASTEST = 0.8

/**
 * @param {import('./engine-choice.js').LevelCalibration | undefined} level
 * @param {string} engine
 * @returns {{ keepsUp: boolean, why: string | null }} why: what showed that it did not (null when it kept up or was not measured)
 */
export function keptUpAt (level, engine) {
  const figures = level?.engines[engine]
  if (!figures || figures.generatorBound !== false) {
    return { keepsUp: false, why: figures?.generatorBound ? 'bound by its cpu' : null }
  }
  const fastest = Math.max(...Object.values(level?.engines ?? {}).map((other) => other.requestsPerSec ?? 0))
  const rate = figures.requestsPerSec ?? 0
  if (fastest > 0 && rate < KEEPS_UP_SHARE_OF_FASTEST * fastest) {
    return { keepsUp: false, why: `${Math.round(rate / fastest * 100)} % of the fastest engine's rate` }
  }
  return { keepsUp: true, why: null }
}
