// @ts-check
/// <reference path="../../donode.d.ts" />
// One method per EXTRA_ROUTES entry (donode names handlers by string and does not tell a handler
// which route matched), each answering with its own route pattern.
import donode from 'donode'
import { EXTRA_ROUTES, extraRouteBody } from '@dyno/scenarios/work'
import { extraHandlerName } from '../routes.js'

/** @typedef {import('../types.js').DonodeRequest} Request @typedef {import('../types.js').DonodeResponse} Response */

class ExtraRoutesController extends donode.Controller {}

EXTRA_ROUTES.forEach((route, index) => {
  Object.defineProperty(ExtraRoutesController.prototype, extraHandlerName(index), {
    value (/** @type {Request} */ request, /** @type {Response} */ response) {
      response.send(extraRouteBody(route.path, request.params))
    }
  })
})

export { ExtraRoutesController as 'module.exports' }
