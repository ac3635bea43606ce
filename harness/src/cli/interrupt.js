// @ts-check
/**
 * Runs `work` with an AbortSignal that SIGINT and SIGTERM abort, so that the work can stop its SUT
 * and write what it has. A second signal is left to the default handler (immediate exit).
 * @template T
 * @param {(signal: AbortSignal) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function onInterrupt (work) {
  const controller = new AbortController()
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    controller.abort(signal)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    return await work(controller.signal)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
