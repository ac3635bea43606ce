// @ts-check
import { BadRequest } from '@feathersjs/errors'

/**
 * Express error middleware that hands a request body the JSON parser could not parse on to
 * Feathers' errorHandler as a Feathers BadRequest. Without it, errorHandler answers body-parser's
 * errors 500: it takes the status from a numeric `error.code` only, and body-parser sets `status`.
 * @param {any} error @param {unknown} req @param {unknown} res @param {(error: unknown) => void} next
 */
export function bodyParseErrorToBadRequest (error, req, res, next) {
  if (error && error.type === 'entity.parse.failed') return next(new BadRequest(error.message))
  next(error)
}
