// @ts-check
/**
 * @typedef {object} Service a data service the database scenarios need, managed by dyno or given by the user
 * @property {'redis' | 'postgres' | 'sqlite'} name
 * @property {{ version: string, source: string, url: string } & Record<string, unknown>} description recorded in results
 * @property {Record<string, string>} env what a SUT needs to reach it (REDIS_URL, DATABASE_URL, SQLITE_PATH)
 * @property {() => Promise<boolean>} healthy
 * @property {() => Promise<void>} restart a fresh, seeded server at the same kind of address; updates env
 * @property {(() => Promise<number>) | null} queryCount the server's own count of the scenario's queries; null: none kept
 * @property {() => Promise<void>} stop
 */
export {}
