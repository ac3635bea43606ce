// @ts-check
// donode builds a new controller for each request (`new Controller()`, no arguments) and has no
// injection of its own, so the data sources are a module-level provider, like donode's own router
// and settings: createApp() provides them once, controllers read the live binding `dataSources`.
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/** @type {import('@dyno/scenarios/data').DataSources} the data sources of the database scenarios */
export let dataSources = NO_DATA_SOURCES

/** @param {import('@dyno/scenarios/data').DataSources} data */
export function provideDataSources (data) {
  dataSources = data
}
