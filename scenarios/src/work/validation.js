// @ts-check
/**
 * The rules of the validation scenario. Frameworks with a validator of their own express these
 * rules in it (schema, joi, class-validator, …); the others call `validateQuery`.
 */
export const VALIDATION_RULES = Object.freeze({
  /** `number` must be an integer (a query string such as `42` or `-7`). */
  numberType: 'integer',
  /** `text` must be a string of at least this many characters. */
  textMinLength: 5
})

const INTEGER_PATTERN = /^-?\d+$/

/**
 * The shared hand-written check, for frameworks without a validation mechanism.
 * @param {{ number?: unknown, text?: unknown }} query the parsed query string
 * @returns {{ ok: true, value: { number: number, text: string } } | { ok: false, message: string }}
 */
export function validateQuery (query) {
  const { number, text } = query
  if (typeof number !== 'string' || !INTEGER_PATTERN.test(number)) {
    return { ok: false, message: '`number` must be an integer' }
  }
  const parsed = Number(number)
  if (!Number.isSafeInteger(parsed)) {
    return { ok: false, message: '`number` must be a safe integer' }
  }
  if (typeof text !== 'string' || text.length < VALIDATION_RULES.textMinLength) {
    return { ok: false, message: `\`text\` must be a string of at least ${VALIDATION_RULES.textMinLength} characters` }
  }
  return { ok: true, value: { number: parsed, text } }
}

/**
 * The response body of a valid request: built from the validated values, whatever validator produced them.
 * @param {number} number
 * @param {string} text
 */
export function validationResult (number, text) {
  return { number, text }
}
