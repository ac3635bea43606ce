// @ts-check
// `--app DIR`: the service in DIR, read once at the option, as the one subject of the run and the catalogue of its scenarios.
import { appScenarios } from './app-scenarios.js'
import { appSubject } from './app-subject.js'
import { appVariants } from './app-variants.js'
import { readAppConfig } from './read-app-config.js'

/**
 * @typedef {object} App
 * @property {string} name how results name the service
 * @property {string} dir its real directory
 * @property {string} file its config
 * @property {import('../suts/discover-suts.js').SutDescriptor[]} suts the service, the one subject a run of it has
 * @property {import('@dyno/scenarios').Scenario[]} scenarios its scenarios, in the config's order
 * @property {import('../variants/variant-source.js').VariantSource} variants what its entries vary: versions of its own dependencies
 * @property {string[] | null} install the command that installs its dependencies in a checkout of another commit (compare-commits)
 * @property {() => { dir: string, file: string, name: string }} toJSON what run.json records of it
 */

/**
 * @param {string} dir
 * @returns {App}
 * @throws {import('../../platform/errors.js').DynoError} DYNO_ERR_APP_CONFIG naming each problem of the config
 */
export function loadApp (dir) {
  const app = readAppConfig(dir)
  const sut = appSubject(app)
  return {
    name: sut.name,
    dir: app.dir,
    file: app.file,
    suts: [sut],
    scenarios: appScenarios(app),
    install: app.config.install ?? null,
    variants: appVariants({ name: sut.name, dir: app.dir, sut }),
    toJSON: () => ({ dir: app.dir, file: app.file, name: sut.name })
  }
}
