import { VALIDATION_RULES } from '@dyno/scenarios/work'
import { Type } from 'class-transformer'
import { IsInt, IsString, MinLength } from 'class-validator'

/** The query of GET /validation as a class-validator DTO: the validation scenario's rules, checked by ValidationPipe. */
export class ValidationQuery {
  /** The query string value converted to a number by class-transformer, then checked to be an integer. */
  @Type(() => Number)
  @IsInt()
  number!: number

  @IsString()
  @MinLength(VALIDATION_RULES.textMinLength)
  text!: string
}
