// @ts-check
// A process's 'exit' can come before the last of what it wrote to its pipes has been read here: a reader that judges the process
// by its last line waits for its output to end as well. A descendant that keeps the pipe open must not hold the reader forever.

/** How long output may go on after the process itself has exited (a descendant holding the pipe). */
const AFTER_EXIT_MS = 2000

/**
 * @param {import('node:stream').Readable[]} streams
 * @param {number} [boundMs]
 * @returns {Promise<void>} once every stream has ended (its data handed to its readers), or after boundMs
 */
export function outputRead (streams, boundMs = AFTER_EXIT_MS) {
  const ends = streams.map((stream) =>
    stream.readableEnded || stream.destroyed
      ? Promise.resolve()
      : new Promise((resolve) => {
        stream.once('end', resolve)
        stream.once('close', resolve)
      }))
  /** @type {NodeJS.Timeout | undefined} */
  let timer
  const bound = new Promise((resolve) => { timer = setTimeout(resolve, boundMs) })
  return Promise.race([Promise.all(ends), bound]).then(() => clearTimeout(timer))
}
