// @ts-check
// The releases a data directory holds already: a release counted, on every runtime and scenario asked for, with the settings and
// counting code this run would count it with, is not counted again. Counting a release under valgrind takes a minute or more per
// runtime and scenario; a data directory kept in the repository (data/timeline) already holds hundreds of them, and site.yml
// starts from it every week.
import { idOf } from './timeline-dataset.js'
import { plannedCounting } from './timeline-records.js'

/**
 * @typedef {{ entry: string, name: string, framework: string, chosen: Array<{ version: string, publishedAt: string | null }> }}
 *   ChosenReleases
 * @typedef {{ name: string, kind: string, version: string }} CountedRuntime
 */

/**
 * Each entry's releases split into those still to count and those the data directory holds on every runtime and scenario.
 * @param {ChosenReleases[]} releases @param {Map<string, unknown>} held the data directory's records, by id
 * @param {{ runtimes: CountedRuntime[], scenarios: string[], load: Parameters<typeof plannedCounting>[0] }} plan
 * @returns {Array<ChosenReleases & { alreadyHeld: ChosenReleases['chosen'], listed: ChosenReleases['chosen'] }>} chosen: those to
 *   count; listed: every release of the entry, in its order
 */
export function withoutHeldReleases (releases, held, { runtimes, scenarios, load }) {
  return releases.map((entry) => {
    const isHeld = (/** @type {{ version: string }} */ release) => runtimes.every((runtime) => scenarios.every((scenario) => {
      const counting = plannedCounting(load, runtime.kind)
      const key = {
        framework: entry.framework,
        release: release.version,
        sut: entry.name,
        runtime: runtime.name,
        runtimeVersion: runtime.version,
        scenario,
        counting
      }
      return held.has(idOf(key, 'ok'))
    }))
    return {
      ...entry,
      chosen: entry.chosen.filter((release) => !isHeld(release)),
      alreadyHeld: entry.chosen.filter(isHeld),
      listed: entry.chosen
    }
  })
}
