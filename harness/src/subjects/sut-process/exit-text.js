// @ts-check

/** @param {number | null} code @param {NodeJS.Signals | null} signal @returns {string} how a process ended, in words */
export function describeExit (code, signal) {
  return signal ? `killed by ${signal}` : `exit code ${code}`
}
