// @ts-check
// donode's one place for all routes: `{ path, method, handler: 'Controller@method' }`, `{param}` syntax.
import { EXTRA_ROUTES } from '@dyno/scenarios/work'

/**
 * The name of the ExtraRoutesController method answering EXTRA_ROUTES[index]: donode names a
 * handler by a string, so every extra route gets its own method.
 * @param {number} index
 */
export function extraHandlerName (index) {
  return `route${index}`
}

/** @param {string} path a `:param` pattern @returns {string} the same pattern in donode's `{param}` syntax */
function toDonodePath (path) {
  return path.replace(/:(\w+)/g, '{$1}')
}

/** A fresh route table (donode annotates the objects it is given, so each app gets its own). */
export function buildRoutes () {
  return [
    { path: '/plaintext', method: 'GET', handler: 'DynoController@plaintext' },
    { path: '/json', method: 'GET', handler: 'DynoController@json' },
    { path: '/users/{userId}/posts/{postId}', method: 'GET', handler: 'DynoController@params' },
    { path: '/echo', method: 'POST', handler: 'DynoController@echo' },
    { path: '/fibonacci', method: 'GET', handler: 'DynoController@fibonacci' },
    { path: '/error/{flag}', method: 'GET', handler: 'DynoController@error' },
    { path: '/validation', method: 'GET', handler: 'DynoController@validation' },
    { path: '/redis', method: 'GET', handler: 'DynoController@redis' },
    { path: '/sqlite', method: 'GET', handler: 'DynoController@sqlite' },
    { path: '/sqlite-async', method: 'GET', handler: 'DynoController@sqliteAsync' },
    { path: '/postgres', method: 'GET', handler: 'DynoController@postgres' },
    { path: '/postgres-js', method: 'GET', handler: 'DynoController@postgresJs' },
    ...EXTRA_ROUTES.map((route, index) => ({
      path: toDonodePath(route.path),
      method: route.method,
      handler: `ExtraRoutesController@${extraHandlerName(index)}`
    }))
  ]
}
