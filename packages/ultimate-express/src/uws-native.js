// @ts-check
import { createRequire } from 'node:module'

/** A variable, so that type checking does not look for the package from this file. */
const UWS_PACKAGE = 'uWebSockets.js'

/**
 * Whether the uWebSockets.js that `from` resolves is the native addon rather than a pure-JS fallback.
 *
 * The workspace's uWebSockets.js is @trufflesuite/uws-js-unofficial: its `src/uws.js` requires
 * `binaries/uws_<platform>_<arch>_<ABI>.node` and, when that fails (any Node other than 16/18/20) or
 * UWS_USE_FALLBACK is set, returns the pure-JS implementation from `dist/` with only a console warning.
 * The native build's exports are the exports of a `.node` module in the require cache; the fallback's never are.
 * @param {string | URL} from a file (or file URL) whose resolution of `uWebSockets.js` counts
 * @returns {boolean}
 */
export function isUwsNative (from) {
  const require = createRequire(from)
  const uws = require(UWS_PACKAGE)
  return Object.values(require.cache).some((entry) => entry?.filename.endsWith('.node') && entry.exports === uws)
}
