// @ts-check
import { Ignitor } from '@adonisjs/core'

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

/**
 * Builds the AdonisJS application (not started): the Ignitor of `bin/server.ts`. Its HTTP server
 * process boots the app, whose routes (`start/routes.js`), middleware (`start/kernel.js`) and
 * exception handler (`app/exceptions/handler.js`) serve the whole dyno contract.
 */
export function createApp () {
  return new Ignitor(APP_ROOT, { importer: IMPORTER }).tap((app) => {
    app.booting(async () => { await import('#start/env') })
    app.listen('SIGTERM', () => app.terminate())
  })
}
