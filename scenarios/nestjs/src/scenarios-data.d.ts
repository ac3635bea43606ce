// The types of `@dyno/scenarios/data` that the NestJS code uses, declared here: `tsconfig.base.json` maps the
// import to this file (`paths`), for this package and the NestJS SUTs that extend it, so that tsc does not
// type-check open-data-sources.js itself (its drivers ship no types of their own, which `strict` rejects).
// Node still loads the real module. Mirrors the JSDoc of open-data-sources.js.

export interface WorldRow { id: number, randomNumber: number }

/** The I/O work of the database scenarios, the same for every SUT. */
export interface DataSources {
  /** one `GET dyno:message` */
  redisMessage: () => Promise<{ message: string | null }>
  /** one synchronous better-sqlite3 query for a random id */
  sqliteWorld: () => WorldRow
  /** the same query through the asynchronous sqlite3 driver */
  sqliteAsyncWorld: () => Promise<WorldRow>
  /** one query through a pg Pool */
  postgresWorld: () => Promise<WorldRow>
  /** one query through postgres.js */
  postgresJsWorld: () => Promise<WorldRow>
  /** closes every client that was opened */
  close: () => Promise<void>
}

/** A DataSources with nothing configured: each scenario throws (500) when called. */
export const NO_DATA_SOURCES: Readonly<DataSources>

/** Opens, once at SUT start, a client for each data source the environment names. */
export function openDataSources (env?: NodeJS.ProcessEnv): Promise<DataSources>
