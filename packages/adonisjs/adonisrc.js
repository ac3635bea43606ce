// @ts-check
import { defineConfig } from '@adonisjs/core/app'

/** The AdonisJS rc file (what `adonisrc.ts` compiles to): the providers and preloads of a minimal HTTP app. */
export default defineConfig({
  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/vinejs_provider')
  ],
  preloads: [
    () => import('#start/routes'),
    () => import('#start/kernel')
  ]
})
