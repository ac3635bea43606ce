// @ts-check
import { bodyMatches } from './check-response.js'

/**
 * A check of a response body under load, or undefined when the scenario does not fix the body.
 * Exact text is a string comparison; JSON compares the canonical text first and parses only on a miss.
 * @param {import('@dyno/scenarios').BodyExpectation | null} expected
 * @returns {((body: string) => boolean) | undefined}
 */
export function bodyVerifier (expected) {
  if (!expected) return undefined
  if (expected.text !== undefined) return (body) => body === expected.text
  if (expected.check !== undefined || expected.schema !== undefined) return (body) => bodyMatches(expected, body)
  const canonical = JSON.stringify(expected.json)
  return (body) => body === canonical || bodyMatches(expected, body)
}
