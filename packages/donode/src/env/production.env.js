// @ts-check
// donode reads `env/<NODE_ENV>.env.js` through require(); the `module.exports` export name makes
// this ES module load as the plain object donode expects (require(esm), Node >= 20.19).

/** donode's production settings: `production: true` skips its bootstrap checks and its error logging. */
const production = {
  /** Not used: src/start.js listens on PORT/HOST itself (see listenOptions). */
  port: 3000,
  production: true,
  logLevel: 2
}

export { production as 'module.exports' }
