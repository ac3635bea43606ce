// @ts-check
import express from 'express'
import { addContractRoutes } from '@dyno/scenarios/express-api'

/**
 * Builds the Express app with the whole dyno contract (the shared Express-API routes); Express has no validator,
 * so validation uses the shared check.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data } = {}) {
  return addContractRoutes(express(), { jsonBody: express.json(), data })
}
