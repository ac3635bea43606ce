// @ts-check
// What a run may choose its subjects and scenarios from: dyno's SUT packages and its contract, or a service's own (`--app`).
import { SCENARIOS } from '@dyno/scenarios'
import { discoverSuts } from './discover-suts.js'

/**
 * @param {import('../apps/load-app.js').App | null | undefined} app
 * @returns {{ suts: import('./discover-suts.js').SutDescriptor[], scenarios: import('@dyno/scenarios').Scenario[] }}
 */
export function subjectCatalogue (app) {
  return app ? { suts: app.suts, scenarios: [...app.scenarios] } : { suts: discoverSuts(), scenarios: [...SCENARIOS] }
}
