import type { DataSources } from '@dyno/scenarios/data'

export type { DataSources }

/**
 * The injection token of the data sources of the database scenarios: `AppModule.forRoot({ data })` provides the
 * one instance the SUT's start opened under it (a value provider), and the controller injects it.
 */
export const DATA_SOURCES = Symbol('DataSources')
