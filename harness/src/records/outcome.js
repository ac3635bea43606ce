// @ts-check
// How a run ends: the status a result records, with the reason and the error code. Every step of a run returns one
// (or null: nothing to say, go on), and the record is settled once, from the outcome the run ended with.

/**
 * @typedef {'ok' | 'invalid' | 'failed' | 'skipped'} RunStatus
 * @typedef {{ status: RunStatus, reason: string | null, errorCode: import('../platform/errors.js').ErrorCode | null }} Outcome
 */

/** @returns {Outcome} */
export const ok = () => ({ status: 'ok', reason: null, errorCode: null })

/** @param {string} reason @param {import('../platform/errors.js').ErrorCode | null} [errorCode] @returns {Outcome} */
export const failed = (reason, errorCode = null) => ({ status: 'failed', reason, errorCode })

/** @param {string} reason @param {import('../platform/errors.js').ErrorCode} errorCode @returns {Outcome} */
export const invalid = (reason, errorCode) => ({ status: 'invalid', reason, errorCode })

/** @param {string} reason @param {import('../platform/errors.js').ErrorCode | null} [errorCode] @returns {Outcome} */
export const skipped = (reason, errorCode = null) => ({ status: 'skipped', reason, errorCode })

/**
 * @param {import('../platform/errors.js').DynoError} error
 * @returns {Outcome} the run failed with the error's message and code; invalid where the code says that the SUT answered wrong
 */
export const failedWith = (error) => error.code === 'DYNO_ERR_UNEXPECTED_UNDER_LOAD'
  ? invalid(error.message, error.code)
  : failed(error.message, error.code)
