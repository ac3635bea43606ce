// @ts-check
import { Ajv, getValidator } from '@feathersjs/schema'
import { VALIDATION_RULES } from '@dyno/scenarios/work'

/** The query validator as a Feathers app generator sets it up: an Ajv instance that coerces query strings. */
const queryValidator = new Ajv({ coerceTypes: true })

/** The validation scenario's rules as a JSON schema for the `validation` service's query. */
export const validationQuerySchema = /** @type {const} */ ({
  $id: 'ValidationQuery',
  type: 'object',
  required: ['number', 'text'],
  properties: {
    number: { type: VALIDATION_RULES.numberType },
    text: { type: 'string', minLength: VALIDATION_RULES.textMinLength }
  }
})

export const validationQueryValidator = getValidator(validationQuerySchema, queryValidator)
