// @ts-check
/** The argument of the CPU-bound scenario: about 28k recursive calls per request. */
export const FIBONACCI_N = 23

/**
 * Naive recursion on purpose: the scenario measures a handler that holds the event loop.
 * @param {number} n
 * @returns {number}
 */
export function fibonacci (n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2)
}

/** @returns {{ n: number, value: number }} computed on every call, never cached. */
export function fibonacciResult () {
  return { n: FIBONACCI_N, value: fibonacci(FIBONACCI_N) }
}
