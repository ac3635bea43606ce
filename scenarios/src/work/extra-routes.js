// @ts-check
/**
 * Twenty routes every SUT registers beside the contract routes, so that routers match against a
 * realistic table instead of a handful of paths. Each answers 200 JSON built by `extraRouteBody`.
 * Path parameters use the `:name` syntax; SUTs whose router spells them differently translate them.
 */
export const EXTRA_ROUTES = Object.freeze([
  { method: 'GET', path: '/api/v1/health' },
  { method: 'GET', path: '/api/v1/status' },
  { method: 'GET', path: '/api/v1/version' },
  { method: 'GET', path: '/api/v1/products' },
  { method: 'GET', path: '/api/v1/products/:id' },
  { method: 'GET', path: '/api/v1/products/:id/reviews' },
  { method: 'GET', path: '/api/v1/products/:id/reviews/:reviewId' },
  { method: 'GET', path: '/api/v1/categories' },
  { method: 'GET', path: '/api/v1/categories/:slug' },
  { method: 'GET', path: '/api/v1/categories/:slug/products' },
  { method: 'GET', path: '/api/v1/orders' },
  { method: 'GET', path: '/api/v1/orders/:orderId' },
  { method: 'GET', path: '/api/v1/orders/:orderId/items' },
  { method: 'GET', path: '/api/v1/customers/:customerId' },
  { method: 'GET', path: '/api/v1/customers/:customerId/orders' },
  { method: 'GET', path: '/api/v1/search' },
  { method: 'GET', path: '/api/v2/products/:id' },
  { method: 'GET', path: '/api/v2/inventory/:sku' },
  { method: 'GET', path: '/static/assets/:file' },
  { method: 'GET', path: '/account/settings/notifications' }
].map((route) => Object.freeze(route)))

/**
 * @param {string} path the route pattern as listed in EXTRA_ROUTES
 * @param {Record<string, string>} params the path parameters the router extracted
 */
export function extraRouteBody (path, params) {
  return { route: path, params: { ...params } }
}
