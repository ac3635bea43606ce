// @ts-check
import express from 'ultimate-express'
import { addContractRoutes } from '@dyno/scenarios/express-api'

/**
 * ultimate-express's json parser hands a malformed body's SyntaxError to its error handling as it is
 * (Express's body-parser tags it 400), and its default error handler answers every error 500. This
 * error middleware, on /echo only, answers that parse error 400 and passes anything else on.
 * @type {import('ultimate-express').ErrorRequestHandler}
 */
function malformedJsonIs400 (error, req, res, next) {
  if (error instanceof SyntaxError) {
    res.status(400).send('Bad Request')
    return
  }
  next(error)
}

/**
 * Builds the ultimate-express app with the whole dyno contract (the shared Express-API routes); it has no
 * validator, so validation uses the shared check. `catch async errors` (ultimate-express's own setting, off
 * by default) hands an async handler's rejection to the error handling as Express 5 does; without it the
 * rejection is rethrown unhandled and ends the process.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data } = {}) {
  const app = express()
  app.set('catch async errors', true)
  return addContractRoutes(app, { jsonBody: express.json(), data, echoErrorHandler: malformedJsonIs400 })
}
