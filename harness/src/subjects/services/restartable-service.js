// @ts-check
/**
 * A service dyno manages: `open` starts a fresh, seeded server and returns its Service; restart stops
 * the current one (dead or not) and opens another. Callers keep one object across restarts.
 * @param {'redis' | 'postgres'} name
 * @param {() => Promise<import('./service.js').Service>} open
 * @param {() => void} cleanup removes what the service left on disk, after the last stop
 * @returns {Promise<import('./service.js').Service>}
 */
export async function restartableService (name, open, cleanup) {
  let current = await open()
  return {
    name,
    get description () { return current.description },
    get env () { return current.env },
    healthy: () => current.healthy(),
    queryCount: current.queryCount && (() => /** @type {() => Promise<number>} */ (current.queryCount)()),
    restart: async () => {
      await current.stop()
      current = await open()
    },
    stop: async () => {
      await current.stop()
      cleanup()
    }
  }
}
