// @ts-check
import net from 'node:net'

/**
 * A TCP port on 127.0.0.1 that is free right now: the kernel picks it (port 0), we read it and let it
 * go. For servers that cannot listen on port 0 and announce the port (redis-server, postgres).
 * @returns {Promise<number>}
 */
export function freeLoopbackPort () {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
