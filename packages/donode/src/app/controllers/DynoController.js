// @ts-check
/// <reference path="../../donode.d.ts" />
// donode loads every file of app/controllers with require() and looks the class up by file name;
// the `module.exports` export name makes this ES module load as the class itself (require(esm)).
import donode from 'donode'
import {
  HELLO_TEXT, errorOrOk, fibonacciResult, helloMessage, routeParams, validateQuery, validationResult
} from '@dyno/scenarios/work'
import { dataSources } from '../data-sources.js'

/** @typedef {import('../types.js').DonodeRequest} Request @typedef {import('../types.js').DonodeResponse} Response */

class DynoController extends donode.Controller {
  /** donode's send() only writes JSON, so the text body goes through node's own response. */
  plaintext (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.setHeader('Content-Type', 'text/plain; charset=utf-8')
    response.end(HELLO_TEXT)
  }

  /** donode's send() pretty-prints (2-space indent); the contract wants the compact text, so node's own end(). */
  json (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.setHeader('Content-Type', 'application/json; charset=UTF-8')
    response.end(JSON.stringify(helloMessage()))
  }

  params (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(routeParams(request.params.userId, request.params.postId))
  }

  /** donode's body parser leaves a body it cannot parse as JSON as the raw string. */
  echo (/** @type {Request} */ request, /** @type {Response} */ response) {
    if (typeof request.body === 'string') return response.reject(400)
    response.send(request.body)
  }

  fibonacci (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(fibonacciResult())
  }

  /** Throws for flag 1: donode's own catch answers. */
  error (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(errorOrOk(request.params.flag))
  }

  validation (/** @type {Request} */ request, /** @type {Response} */ response) {
    const checked = validateQuery(request.query)
    if (!checked.ok) return response.reject(400, { error: checked.message })
    response.send(validationResult(checked.value.number, checked.value.text))
  }

  /** The database scenarios: what the data source returns, through donode's send(); a rejection reaches donode's catch. */
  async redis (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(await dataSources.redisMessage())
  }

  sqlite (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(dataSources.sqliteWorld())
  }

  async sqliteAsync (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(await dataSources.sqliteAsyncWorld())
  }

  async postgres (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(await dataSources.postgresWorld())
  }

  async postgresJs (/** @type {Request} */ request, /** @type {Response} */ response) {
    response.send(await dataSources.postgresJsWorld())
  }
}

export { DynoController as 'module.exports' }
