// @ts-check
import { Ignitor } from '@adonisjs/core'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/** The AdonisJS app root: the package directory, where `adonisrc.js`, `config/`, `start/` and `app/` live. */
const APP_ROOT = new URL('../', import.meta.url)

/**
 * The importer AdonisJS uses to import files from the app root, as in `bin/server.ts`.
 * @param {string} filePath
 */
const IMPORTER = (filePath) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) return import(new URL(filePath, APP_ROOT).href)
  return import(filePath)
}

/** The container binding of the data sources of the database scenarios, which `start/routes.js` resolves. */
export const DATA_SOURCES_BINDING = 'dyno.dataSources'

/**
 * Builds the AdonisJS application (not started): the Ignitor of `bin/server.ts`. Its HTTP server
 * process boots the app, whose routes (`start/routes.js`), middleware (`start/kernel.js`) and
 * exception handler (`app/exceptions/handler.js`) serve the whole dyno contract.
 * `data` (the data sources of the database scenarios, opened by the start file) is bound as a value in the
 * app's container under `DATA_SOURCES_BINDING`; without it, those routes answer 500.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options]
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  return new Ignitor(APP_ROOT, { importer: IMPORTER }).tap((app) => {
    app.booting(async () => { await import('#start/env') })
    app.booting(() => { app.container.bindValue(DATA_SOURCES_BINDING, data) })
    app.listen('SIGTERM', () => app.terminate())
  })
}
