// @ts-check
import vine from '@vinejs/vine'
import { VALIDATION_RULES } from '@dyno/scenarios/work'

if (VALIDATION_RULES.numberType !== 'integer') throw new Error('the validator below expresses an integer `number`')

/** The validation scenario's rules as a VineJS schema: `number` an integer, `text` long enough. */
export const validationQueryValidator = vine.compile(
  vine.object({
    number: vine.number().withoutDecimals(),
    text: vine.string().minLength(VALIDATION_RULES.textMinLength)
  })
)
