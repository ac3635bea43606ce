import { EXTRA_ROUTES, extraRouteBody } from '@dyno/scenarios/work'
import { Controller, Get, Param } from '@nestjs/common'

/**
 * The 20 routes of EXTRA_ROUTES. Rather than 20 hand-written methods, one handler method per route is
 * added to the prototype and decorated with Nest's own `@Get(path)` and `@Param()`, exactly as the
 * decorator syntax would do it. Nest's router accepts the `:param` syntax as it is.
 */
@Controller()
export class ExtraRoutesController {}

EXTRA_ROUTES.forEach((route, index) => {
  const prototype = ExtraRoutesController.prototype
  const methodName = `extraRoute${index}`
  const descriptor: PropertyDescriptor = {
    value: (params: Record<string, string>) => extraRouteBody(route.path, params),
    writable: true,
    configurable: true
  }
  Object.defineProperty(prototype, methodName, descriptor)
  Param()(prototype, methodName, 0)
  Get(route.path)(prototype, methodName, descriptor)
})
