// @ts-check
import app from '@adonisjs/core/services/app'
import { ExceptionHandler } from '@adonisjs/core/http'
import { errors as vineErrors } from '@vinejs/vine'

/** The app's exception handler, as an AdonisJS app scaffolds it: debug output only outside production. */
export default class HttpExceptionHandler extends ExceptionHandler {
  debug = !app.inProduction

  /**
   * @param {unknown} error
   * @param {import('@adonisjs/core/http').HttpContext} ctx
   */
  async handle (error, ctx) {
    // VineJS errors carry 422 Unprocessable Entity; the dyno contract answers a rejected query 400.
    if (error instanceof vineErrors.E_VALIDATION_ERROR) error.status = 400
    return super.handle(error, ctx)
  }
}
