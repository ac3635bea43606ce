// @ts-check
// What a test is waiting for right now: each helper that waits on a process or a line (a dyno command, a run, a line to appear)
// says so here while it waits, so that a test which runs out of time says what it was waiting for (timeout-says-what-it-waited-for.js
// adds it to vitest's "Test timed out"), not only that it ran out.

/** @type {Map<number, { what: string, sinceMs: number, progress: string | null }>} */
const pending = new Map()
let nextId = 0

/**
 * Waits for `promise`, saying meanwhile that the test waits for `what`.
 * @template T
 * @param {string} what e.g. "dyno run --frameworks node-http" or "/measure/ in what dyno prints"
 * @param {Promise<T> | ((progress: (said: string) => void) => Promise<T>)} work the promise, or a function given a way to say how far
 *   the wait has come (the last line of a command, the cells written so far)
 * @returns {Promise<T>}
 */
export async function waitingFor (what, work) {
  const id = nextId++
  const entry = { what, sinceMs: performance.now(), progress: /** @type {string | null} */ (null) }
  pending.set(id, entry)
  try {
    return await (typeof work === 'function' ? work((said) => { entry.progress = said }) : work)
  } finally {
    pending.delete(id)
  }
}

/** @returns {string[]} every wait still open, the oldest first: what, for how long, and how far it had come */
export function openWaits () {
  const nowMs = performance.now()
  return [...pending.values()].map(({ what, sinceMs, progress }) =>
    `${what} (for ${((nowMs - sinceMs) / 1000).toFixed(1)} s${progress ? `; last: ${progress}` : ''})`)
}
