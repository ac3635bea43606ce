// @ts-check
// A TCP port free now, for a server that cannot listen on port 0 and announce its port (redis-server, postgres, a service told its port
// by PORT). The port the kernel picks for port 0 comes from its ephemeral range, the range it also takes every outgoing connection's
// local port from: in the moment between letting that port go and the server binding it, a connection (the service's own, to its
// database, under valgrind a long moment) can take it, and the server fails with EADDRINUSE. So the port is drawn at random below that
// range, where no connection is given one and only another listener choosing the same port could collide, and checked by binding it.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** The lowest port drawn: above the ports services are known by. */
const LOWEST_PORT = 10000
/** Ports tried before falling back to one the kernel picks. */
const ATTEMPTS = 50

/**
 * @param {string} [address] the address the server will listen on
 * @returns {Promise<number>}
 */
export async function freePort (address = '127.0.0.1') {
  const below = ephemeralRangeStart()
  const attempts = below > LOWEST_PORT ? ATTEMPTS : 0
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (below - LOWEST_PORT))
    if (await bound(address, port) !== null) return port
  }
  const picked = await bound(address, 0)
  if (picked === null) throw new Error(`no TCP port could be bound on ${address}`)
  return picked
}

/** @returns {number} the first port of the kernel's ephemeral range (Linux's default where it cannot be read) */
function ephemeralRangeStart () {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    return Number.isInteger(low) && low > 0 ? low : 32768
  } catch {
    return 32768
  }
}

/** @param {string} address @param {number} port @returns {Promise<number | null>} the port bound and let go, null: it was taken */
function bound (address, port) {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', () => resolve(null))
    server.listen(port, address, () => {
      const { port: boundPort } = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(boundPort))
    })
  })
}
