// @ts-check
// The few lines every SUT's start file shares: where to listen and how to say it is ready.

const DEFAULT_HOST = '127.0.0.1'

/**
 * Reads PORT (default 0, an ephemeral port) and HOST (default 127.0.0.1) from the environment.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ port: number, host: string }}
 */
export function listenOptions (env = process.env) {
  const rawPort = env.PORT ?? '0'
  const port = Number(rawPort)
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    throw new RangeError(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(rawPort)}`)
  }
  const host = env.HOST || DEFAULT_HOST
  return { port, host }
}

/**
 * Prints the one line the harness waits for: `{"event":"ready","port":<bound port>}`.
 * @param {number} port the port the server actually bound
 * @param {Record<string, unknown>} [details] extra facts the SUT reports, e.g. `{ uwsNative: true }`
 */
export function announceReady (port, details = {}) {
  if (!Number.isInteger(port) || port <= 0) {
    throw new RangeError(`announceReady needs the bound port, got ${JSON.stringify(port)}`)
  }
  process.stdout.write(JSON.stringify({ event: 'ready', port, ...details }) + '\n')
}

/** How long a SUT may spend closing its data clients on SIGTERM before it exits anyway. */
const CLOSE_TIMEOUT_MS = 2000

/**
 * On SIGTERM, closes the SUT's data clients (bounded in time) and exits 0. SUT start files only:
 * this is the one place a SUT ends its own process.
 * @param {() => Promise<void>} close
 */
export function exitOnSigterm (close) {
  process.once('SIGTERM', () => {
    const timer = setTimeout(() => process.exit(0), CLOSE_TIMEOUT_MS)
    timer.unref()
    close().finally(() => process.exit(0))
  })
}
