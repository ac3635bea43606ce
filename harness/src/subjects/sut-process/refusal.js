// @ts-check
/**
 * Why dyno refuses to measure a SUT that started fine, judged from its ready line; null: no refusal.
 * A uWebSockets.js SUT running on the pure-JS fallback is not uWS, and must never be reported as it.
 * @param {import('./start-sut.js').ReadyLine} ready
 * @returns {string | null}
 */
export function refusalReason (ready) {
  if (ready.uwsNative === false) {
    return 'DYNO_ERR_SUT_REFUSED: the uWebSockets.js native binary is not loaded on this runtime (a pure-JS fallback answered); ' +
      'dyno does not measure a fallback build as uWS'
  }
  return null
}
