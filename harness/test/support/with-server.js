// @ts-check
// A test server's lifetime around one piece of work: started, handed to the work, and closed however the work ends.

/**
 * @template {{ close: () => Promise<void> }} S @template T
 * @param {Promise<S>} starting @param {(server: S) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withServer (starting, work) {
  const server = await starting
  try {
    return await work(server)
  } finally {
    await server.close()
  }
}
