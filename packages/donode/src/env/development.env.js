// @ts-check
// Used when NODE_ENV is unset (donode's default environment); the harness always runs production.

/** donode's development settings: bootstrap checks on, thrown errors logged to stdout. */
const development = {
  /** Not used: src/start.js listens on PORT/HOST itself (see listenOptions). */
  port: 3000,
  production: false,
  logLevel: 0
}

export { development as 'module.exports' }
