// @ts-check
// The data sources of the database scenarios, opened once per SUT process, the same for every SUT.
/** @typedef {import("./open-data-sources.js").DataSources} DataSources */
/** @typedef {import("./own-sync-sqlite.js").SyncSqliteDatabase} SyncSqliteDatabase */
export { DEFAULT_PG_POOL_SIZE, NO_DATA_SOURCES, openDataSources } from './open-data-sources.js'
export { openDataSourcesWithOwnSqlite } from './own-sync-sqlite.js'
export {
  REDIS_MESSAGE_KEY,
  REDIS_MESSAGE_VALUE,
  WORLD_QUERY_POSTGRES,
  WORLD_QUERY_SQLITE,
  WORLD_ROW_COUNT,
  WORLD_ROW_RULE,
  WORLD_SEED_SQL_POSTGRES,
  WORLD_TABLE_DDL,
  isWorldRow,
  randomNumberFor,
  randomWorldId,
  toWorldRow,
  worldRows
} from './world.js'
