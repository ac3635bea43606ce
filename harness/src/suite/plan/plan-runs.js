// @ts-check
import { seededRandom, shuffled } from '../../judging/stats/seeded-random.js'

/**
 * @typedef {object} PlannedRun
 * @property {import('../../subjects/suts/resolve-subjects.js').Subject} sut
 * @property {import('@dyno/scenarios').Scenario} scenario
 * @property {number} connections
 * @property {number} repeat 1-based
 * @property {string} file the result file name
 * @property {number} position in the whole plan, from 0: parts of a split plan are merged back in this order
 */

/**
 * The order of a run's measurements. One repeat: SUT by SUT, scenario by scenario, level by level.
 * Several: round after round, each round every (SUT, scenario, level) once, in an order shuffled
 * anew from the seed, so that drift of the machine spreads evenly over the SUTs instead of favouring
 * whichever ran first. A round keeps each SUT's cells together (the SUTs in a shuffled order, each SUT's cells shuffled among
 * themselves): one launch of the SUT serves them (sut-session.js), and each round is a launch of its own, so that the rounds
 * sample what differs from one launch to the next, not only from one second to the next.
 * @param {{ suts: import('../../subjects/suts/resolve-subjects.js').Subject[], scenarios: import('@dyno/scenarios').Scenario[],
 *   connections: number[], repeats: number, seed: number }} options
 * @returns {PlannedRun[]}
 */
export function planRuns ({ suts, scenarios, connections, repeats, seed }) {
  const cellsOf = (/** @type {import('../../subjects/suts/resolve-subjects.js').Subject} */ sut) =>
    scenarios.flatMap((scenario) => connections.map((level) => ({ sut, scenario, connections: level })))
  const random = seededRandom(seed)
  const plan = []
  for (let repeat = 1; repeat <= repeats; repeat++) {
    const round = repeats === 1 ? suts.flatMap(cellsOf) : shuffled(suts, random).flatMap((sut) => shuffled(cellsOf(sut), random))
    for (const cell of round) {
      const stem = cell.sut.variant ? cell.sut.variant.label.replace(/[^A-Za-z0-9@._+-]/g, '_') : cell.sut.name
      const runtime = cell.sut.label === (cell.sut.variant?.label ?? cell.sut.name) ? '' : `--${cell.sut.runtime.name}`
      const file = `${stem}${runtime}--${cell.scenario.name}` +
        `${connections.length > 1 ? `--c${cell.connections}` : ''}${repeats > 1 ? `--r${repeat}` : ''}.json`
      plan.push({ ...cell, repeat, file, position: plan.length })
    }
  }
  return plan
}
