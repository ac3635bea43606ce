// @ts-check
/** The message of the error the error scenario throws; a body that leaks it with a stack trace fails verification. */
export const INTENTIONAL_ERROR_MESSAGE = 'dyno: intentional error'

/**
 * Throws when the flag is `1`, so the framework's own error handling must answer; any other flag is fine.
 * @param {string} flag
 * @returns {{ ok: true }}
 */
export function errorOrOk (flag) {
  if (flag === '1') throw new Error(INTENTIONAL_ERROR_MESSAGE)
  return { ok: true }
}
