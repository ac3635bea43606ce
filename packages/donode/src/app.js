// @ts-check
/// <reference path="./donode.d.ts" />
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import donode from 'donode'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'
import { buildRoutes } from './app/routes.js'
import { provideDataSources } from './app/data-sources.js'

/** donode resolves app/controllers, app/middleware and env/ against this directory. */
const APP_ROOT = fileURLToPath(new URL('.', import.meta.url))

/**
 * Builds the donode app with the whole dyno contract and returns its request listener (donode's documented way: create() returns the
 * listener, the app owns the server). donode keeps its router and settings in module singletons: one app per process.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database
 *   scenarios, handed to the controllers through app/data-sources.js
 * @returns {import('node:http').RequestListener}
 */
export function createListener ({ data = NO_DATA_SOURCES } = {}) {
  provideDataSources(data)
  const app = donode.donode.create({
    config: {
      appRoot: APP_ROOT,
      appDir: 'app',
      controllerDir: 'controllers',
      middlewareDir: 'middleware',
      envDir: 'env',
      // donode path.join()s this, so it must be a string; the directory does not exist (no static files).
      publicDir: 'public',
      environment: process.env.NODE_ENV
    },
    routes: buildRoutes(),
    headers: {}
  })
  return app.listener
}

/**
 * The donode app's listener in a node:http server. It is not listening yet.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  return http.createServer(createListener({ data }))
}
