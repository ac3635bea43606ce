// @ts-check
import { constants } from 'node:os'
import { killProcessGroups } from '../../platform/process/group-registry.js'
import { watchAncestors } from './watch-ancestors.js'

/** The signals that interrupt dyno: Ctrl-C, `kill` and `timeout`, a closed terminal. */
export const INTERRUPT_SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])
/**
 * A repeat this soon after the first signal is the same interruption delivered twice (a Ctrl-C reaches
 * pnpm and dyno together, and a parent may pass it on), not a second Ctrl-C.
 */
const SAME_INTERRUPTION_MS = 500

/**
 * Runs `work` with an AbortSignal that an interruption aborts, with the signal's name as its reason, so
 * that the work stops what it started and writes what it has. An interruption is SIGINT, SIGTERM, SIGHUP,
 * or the end of a process that started dyno (pnpm), which counts as SIGHUP.
 *
 * The handlers stay installed until the work is done, so no repeat ever reaches the default handler (an
 * immediate exit that would orphan the SUT). A second signal, later than SAME_INTERRUPTION_MS, cuts the
 * waits short: every process group dyno started is killed at once, and the work still writes what it has.
 * @template T
 * @param {(signal: AbortSignal) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function onInterrupt (work) {
  const controller = new AbortController()
  let firstAtMs = 0
  const onSignal = (/** @type {NodeJS.Signals} */ name) => {
    if (!controller.signal.aborted) {
      firstAtMs = Date.now()
      controller.abort(name)
    } else if (Date.now() - firstAtMs >= SAME_INTERRUPTION_MS) {
      killProcessGroups()
    }
  }
  // A signal sent with the end of the parent (`timeout` signals its whole group, pnpm and dyno) names the interruption: the watch's
  // timer runs before the loop reads signals, so the hang-up is taken after them, in the same turn of the loop.
  const stopWatching = watchAncestors(() => setImmediate(() => { if (!controller.signal.aborted) onSignal('SIGHUP') }))
  for (const name of INTERRUPT_SIGNALS) process.on(name, onSignal)
  try {
    return await work(controller.signal)
  } finally {
    stopWatching()
    for (const name of INTERRUPT_SIGNALS) process.off(name, onSignal)
  }
}

/**
 * The exit status of an interrupted command: 128 + the signal's number, as a shell reports a process
 * killed by it (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
 * @param {AbortSignal} signal an aborted signal from onInterrupt
 */
export function interruptedExitCode (signal) {
  const number = constants.signals[/** @type {NodeJS.Signals} */ (signal.reason)] ?? constants.signals.SIGINT
  return 128 + number
}
