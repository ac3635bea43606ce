// @ts-check
/**
 * Collects the lines a child process writes to a stream and waits, bounded, for one that matches.
 * @param {import('node:stream').Readable} stream
 */
export function collectLines (stream) {
  /** @type {string[]} */
  const lines = []
  let partial = ''
  /** @type {Set<() => void>} */
  const waiters = new Set()
  stream.on('data', (/** @type {Buffer} */ chunk) => {
    const parts = (partial + chunk.toString()).split('\n')
    partial = parts.pop() ?? ''
    lines.push(...parts)
    for (const wake of waiters) wake()
  })
  return {
    lines,
    /**
     * @param {RegExp} pattern
     * @param {number} [timeoutMs]
     * @returns {Promise<RegExpExecArray>}
     */
    waitFor (pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (const line of lines) {
            const match = pattern.exec(line)
            if (match) {
              waiters.delete(check)
              clearTimeout(timer)
              resolve(match)
              return
            }
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; lines: ${JSON.stringify(lines)}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    }
  }
}
