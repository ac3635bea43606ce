// @ts-check
import { feathers } from '@feathersjs/feathers'
import express, { errorHandler, json, notFound, rest } from '@feathersjs/express'
import { hooks as schemaHooks } from '@feathersjs/schema'
import { HELLO_TEXT } from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'
import { bodyParseErrorToBadRequest } from './body-errors.js'
import {
  dataServices, echoService, errorService, extraRouteServices, fibonacciService, jsonService, userPostsService,
  validationService
} from './services.js'
import { validationQueryValidator } from './validation.js'

/**
 * Node's default import of this CommonJS module is the transport function; TypeScript, under
 * `nodenext`, types it as the whole module, whose `default` that same function also is.
 */
const feathersExpress = /** @type {typeof express.default} */ (/** @type {unknown} */ (express))

/**
 * Builds the Feathers app on its Express transport with the whole dyno contract. Every route but
 * /plaintext is a Feathers service; /plaintext is an Express route, because the REST transport
 * answers services in JSON only.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const app = feathersExpress(feathers())
  app.use(json())
  app.use(bodyParseErrorToBadRequest)
  app.configure(rest())

  // Express's `app.get(path, handler)` spelled as `app.route(path).get(handler)`, which Feathers' typings keep.
  app.route('/plaintext').get((req, res) => { res.type('text/plain').send(HELLO_TEXT) })
  app.use('json', jsonService)
  app.use('users/:userId/posts', userPostsService)
  app.use('echo', echoService)
  app.use('fibonacci', fibonacciService)
  app.use('error', errorService)
  app.use('validation', validationService)
  for (const [path, service] of dataServices(data)) app.use(path, service)
  for (const [path, service] of extraRouteServices()) app.use(path, service)

  // A REST `create` answers 201 Created; the contract's echo answers 200.
  app.service('echo').hooks({
    after: { create: [(context) => { context.http = { ...context.http, status: 200 } }] }
  })
  app.service('validation').hooks({ before: { find: [schemaHooks.validateQuery(validationQueryValidator)] } })

  app.use(notFound())
  app.use(errorHandler({ logger: false }))
  return app
}
