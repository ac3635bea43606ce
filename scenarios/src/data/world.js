// @ts-check
/**
 * The `world` table every database scenario reads: 10,000 rows whose `randomNumber` is a
 * deterministic function of `id`, so verification can check the value a SUT returns, not just its shape.
 */
/**
 * The rule every row follows: `randomNumber = (id × multiplier) mod rowCount + 1`, for id 1..rowCount. It is written
 * here only: the harness seeds PostgreSQL with WORLD_SEED_SQL_POSTGRES below and hands the rule to the native load
 * engine in its config; the Go and Python SUTs only draw ids in 1..rowCount (their mirror tests check the count).
 * 7919 is prime, so every id maps to a different number.
 */
export const WORLD_ROW_RULE = Object.freeze({ rowCount: 10_000, multiplier: 7919 })
export const WORLD_ROW_COUNT = WORLD_ROW_RULE.rowCount

/**
 * @param {number} id 1..WORLD_ROW_COUNT
 * @returns {number} 1..WORLD_ROW_COUNT, scattered
 */
export function randomNumberFor (id) {
  return ((id * WORLD_ROW_RULE.multiplier) % WORLD_ROW_RULE.rowCount) + 1
}

/** @returns {number} a uniformly random id in 1..WORLD_ROW_COUNT: a new row for every request */
export function randomWorldId () {
  return 1 + Math.floor(Math.random() * WORLD_ROW_COUNT)
}

/**
 * @param {unknown} value a parsed response body
 * @returns {boolean} whether it is a real row of the world table: `{ id, randomNumber }`, nothing else
 */
export function isWorldRow (value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const { id, randomNumber, ...rest } = /** @type {Record<string, unknown>} */ (value)
  return Number.isInteger(id) && /** @type {number} */ (id) >= 1 && /** @type {number} */ (id) <= WORLD_ROW_COUNT &&
    randomNumber === randomNumberFor(/** @type {number} */ (id)) && Object.keys(rest).length === 0
}

/** The query of the sqlite scenarios (`?` placeholder); columns are lower case in every database. */
export const WORLD_QUERY_SQLITE = 'SELECT id, randomnumber FROM world WHERE id = ?'
/** The same query for PostgreSQL (`$1` placeholder). */
export const WORLD_QUERY_POSTGRES = 'SELECT id, randomnumber FROM world WHERE id = $1'
/** Creates the table (the same statement works in SQLite and PostgreSQL). */
export const WORLD_TABLE_DDL = 'CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL)'

/** Seeds PostgreSQL's table in one statement, by the same rule (rows already there are kept). */
export const WORLD_SEED_SQL_POSTGRES = 'INSERT INTO world (id, randomnumber) ' +
  `SELECT id, ((id * ${WORLD_ROW_RULE.multiplier}) % ${WORLD_ROW_RULE.rowCount}) + 1 ` +
  `FROM generate_series(1, ${WORLD_ROW_RULE.rowCount}) AS id ON CONFLICT (id) DO NOTHING`

/** @returns {Generator<[number, number]>} every row as [id, randomnumber], for seeding */
export function * worldRows () {
  for (let id = 1; id <= WORLD_ROW_COUNT; id++) yield [id, randomNumberFor(id)]
}

/** The Redis key the redis scenario reads, and the value it is seeded with. */
export const REDIS_MESSAGE_KEY = 'dyno:message'
export const REDIS_MESSAGE_VALUE = 'Hello, World!'

/**
 * A row as the databases return it (`randomnumber`, lower case) in the contract's shape.
 * @param {{ id: number, randomnumber: number } | undefined} row
 * @returns {{ id: number, randomNumber: number }}
 */
export function toWorldRow (row) {
  if (!row) throw new Error('no world row for that id: the world table is not seeded')
  return { id: row.id, randomNumber: row.randomnumber }
}
