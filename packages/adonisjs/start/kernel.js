// @ts-check
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

/** The exception handler that turns every error of a request into a response. */
server.errorHandler(() => import('#exceptions/handler'))

/** Middleware run on every request, matched or not: none beyond the framework's. */
server.use([])

/** Middleware run on every matched route: the body parser. */
router.use([() => import('@adonisjs/core/bodyparser_middleware')])
