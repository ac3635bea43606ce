// @ts-check
import { Env } from '@adonisjs/core/env'

/** The environment, validated once at boot as in every AdonisJS app. */
export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test']),
  PORT: Env.schema.number(),
  HOST: Env.schema.string({ format: 'host' }),
  APP_KEY: Env.schema.string()
})
