// @ts-check
import { Secret } from '@adonisjs/core/helpers'
import { defineConfig } from '@adonisjs/core/http'
import env from '#start/env'

/** Signs and encrypts cookies; nothing in the dyno contract uses it, but the HTTP server needs it. */
export const appKey = new Secret(env.get('APP_KEY'))

/** The HTTP server settings: AdonisJS's defaults. */
export const http = defineConfig({})
