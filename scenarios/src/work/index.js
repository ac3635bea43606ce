// @ts-check
// The work each route does, shared by every SUT so that only the framework layer differs.
export { HELLO_TEXT, helloMessage } from './hello.js'
export { FIBONACCI_N, fibonacci, fibonacciResult } from './fibonacci.js'
export { routeParams } from './route-params.js'
export { INTENTIONAL_ERROR_MESSAGE, errorOrOk } from './error-flag.js'
export { VALIDATION_RULES, validateQuery, validationResult } from './validation.js'
export { EXTRA_ROUTES, extraRouteBody } from './extra-routes.js'
export { WEBSOCKET_PATH } from './websocket.js'
