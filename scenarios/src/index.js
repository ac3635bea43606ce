// @ts-check
import { error } from './contract/error.js'
import { fibonacci } from './contract/fibonacci.js'
import { json } from './contract/json.js'
import { notFound } from './contract/not-found.js'
import { params } from './contract/params.js'
import { plaintext } from './contract/plaintext.js'
import { post } from './contract/post.js'
import { validation } from './contract/validation.js'
import { redis } from './contract/redis.js'
import { sqlite } from './contract/sqlite.js'
import { sqliteAsync } from './contract/sqlite-async.js'
import { postgres } from './contract/postgres.js'
import { postgresJs } from './contract/postgres-js.js'
import { tlsJson } from './contract/tls-json.js'
import { h2Json } from './contract/h2-json.js'
import { h2cJson } from './contract/h2c-json.js'
import { wsEcho } from './contract/ws-echo.js'

export { defineScenario, nthRequest } from './contract/define-scenario.js'
export { DEFAULT_LOAD, DEFAULT_PROFILE, LOAD_PROFILES } from './load-profiles.js'
export { ECHO_BODY } from './contract/post.js'
export { BODY_CHECKS } from './contract/body-checks.js'
export { PROTOCOLS, SERVED_PROTOCOLS } from './contract/protocols.js'

/** Every scenario of the contract, in the order runs take them. */
export const SCENARIOS = Object.freeze([
  plaintext, json, params, post, fibonacci, error, validation, notFound, redis, sqlite, sqliteAsync, postgres, postgresJs,
  tlsJson, h2Json, h2cJson, wsEcho
])

/**
 * @typedef {import('./contract/define-scenario.js').Scenario} Scenario
 * @typedef {import('./contract/define-scenario.js').RequestSpec} RequestSpec
 * @typedef {import('./contract/define-scenario.js').DrawnRequest} DrawnRequest
 * @typedef {import('./contract/define-scenario.js').ResponseExpectation} ResponseExpectation
 * @typedef {import('./contract/define-scenario.js').BodyExpectation} BodyExpectation
 * @typedef {import('./contract/define-scenario.js').WebSocketExchange} WebSocketExchange
 * @typedef {import('./contract/protocols.js').Protocol} Protocol
 * @typedef {import('./contract/protocols.js').ProtocolName} ProtocolName
 * @typedef {import('./contract/protocols.js').ServedProtocol} ServedProtocol
 * @typedef {import('./load-profiles.js').LoadProfile} LoadProfile
 */
