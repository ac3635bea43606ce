// @ts-check
// What a run may choose its subjects and scenarios from: dyno's SUT packages and its contract, or a service's own (`--app`), with what
// its entries vary: a SUT's framework, or a dependency of the service.
import { SCENARIOS } from '@dyno/scenarios'
import { SUT_VARIANTS } from '../variants/sut-variants.js'
import { discoverSuts } from './discover-suts.js'

/**
 * @param {import('../apps/load-app.js').App | null | undefined} app
 * @returns {{ suts: import('./discover-suts.js').SutDescriptor[], scenarios: import('@dyno/scenarios').Scenario[],
 *   variants: import('../variants/variant-source.js').VariantSource }}
 */
export function subjectCatalogue (app) {
  return app
    ? { suts: app.suts, scenarios: [...app.scenarios], variants: app.variants }
    : { suts: discoverSuts(), scenarios: [...SCENARIOS], variants: SUT_VARIANTS }
}
