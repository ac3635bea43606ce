// @ts-check
import { seededRandom, shuffled } from '../../judging/stats/seeded-random.js'

/**
 * @typedef {object} PlannedRun
 * @property {import('../../subjects/suts/resolve-subjects.js').Subject} sut
 * @property {import('@dyno/scenarios').Scenario} scenario
 * @property {number} connections
 * @property {number} repeat 1-based
 * @property {string} block the block it is measured in: every SUT's cell of one scenario and level in one round, back to back
 * @property {string} file the result file name
 * @property {number} position in the whole plan, from 0: parts of a split plan are merged back in this order
 */

/**
 * The order of a run's measurements. One repeat: SUT by SUT, scenario by scenario, level by level.
 * Several: round after round, each round every (SUT, scenario, level) once, as blocks: the scenarios and levels in an order shuffled
 * anew from the seed, and within each, every SUT back to back in a shuffled order. The machine's speed drifts by the second here
 * (docs/measuring.md, "Rounds as blocks"); SUTs measured within seconds of each other share the drift, which the rank groups then
 * take out as the block's effect. Each round is a launch of every SUT of its own, kept up through the round (run-resources.js), so that
 * the rounds sample what differs from one launch to the next, not only from one second to the next.
 * @param {{ suts: import('../../subjects/suts/resolve-subjects.js').Subject[], scenarios: import('@dyno/scenarios').Scenario[],
 *   connections: number[], repeats: number, seed: number }} options
 * @returns {PlannedRun[]}
 */
export function planRuns ({ suts, scenarios, connections, repeats, seed }) {
  const levels = scenarios.flatMap((scenario) => connections.map((level) => ({ scenario, connections: level })))
  const random = seededRandom(seed)
  const plan = []
  for (let repeat = 1; repeat <= repeats; repeat++) {
    const round = repeats === 1
      ? suts.flatMap((sut) => levels.map((level) => ({ sut, ...level })))
      : shuffled(levels, random).flatMap((level) => shuffled(suts, random).map((sut) => ({ sut, ...level })))
    for (const cell of round) {
      const stem = cell.sut.variant ? cell.sut.variant.label.replace(/[^A-Za-z0-9@._+-]/g, '_') : cell.sut.name
      const runtime = cell.sut.label === (cell.sut.variant?.label ?? cell.sut.name) ? '' : `--${cell.sut.runtime.name}`
      const file = `${stem}${runtime}--${cell.scenario.name}` +
        `${connections.length > 1 ? `--c${cell.connections}` : ''}${repeats > 1 ? `--r${repeat}` : ''}.json`
      const block = `r${repeat}/${cell.scenario.name}/c${cell.connections}`
      plan.push({ ...cell, repeat, block, file, position: plan.length })
    }
  }
  return plan
}
