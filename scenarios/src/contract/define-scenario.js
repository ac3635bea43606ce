// @ts-check
/**
 * @typedef {object} RequestSpec
 * @property {'GET'|'POST'|'PUT'|'DELETE'|'PATCH'} method
 * @property {string} path path and query string; with `inTurn`, the template they were drawn from (`/items/{id}`)
 * @property {DrawnRequest[]} [inTurn] what load and counts send in turn, each request the next (a service's generated parameters or
 *   weighted mix, `--app`): its method, path, headers and body; absent: the same request every time
 * @property {Record<string, string>} [headers]
 * @property {string | null} [body]
 * @property {{ weight: number, method: string, path: string }[]} [mix] the weighted mix `inTurn` was laid out from (a service's, `--app`),
 *   as results record it; absent: one request
 *
 * @typedef {object} DrawnRequest one of the requests sent in turn
 * @property {RequestSpec['method']} method
 * @property {string} path
 * @property {Record<string, string>} headers
 * @property {string | null} body
 * @property {number} [entry] in a weighted mix, which of its requests this is (0 for the first)
 *
 * @typedef {object} BodyExpectation one of: exact text, deep-equal JSON, JSON a named check accepts, JSON a schema accepts, or a body
 *   a service's own module accepts
 * @property {string} [text] the body must equal this text exactly
 * @property {unknown} [json] the body must parse as JSON deep-equal to this value
 * @property {keyof typeof import('./body-checks.js').BODY_CHECKS} [check] the body must parse as JSON that this shared check accepts
 * @property {object} [schema] the body must parse as JSON that this JSON Schema accepts (a service's own scenarios, `--app`)
 * @property {string} [module] the real path of a module of the service's (`--app`) whose default export accepts the body
 *
 * @typedef {object} ResponseExpectation
 * @property {number} status
 * @property {string | null} contentType the media type (`type/subtype`); parameters such as charset are allowed; null: not checked
 * @property {Record<string, string>} [headers] each named response header must have exactly this value (a service's, `--app`);
 *   names in any case
 * @property {BodyExpectation | null} body null: not checked
 * @property {boolean} [noStackTrace] the body must not contain a stack trace
 * @property {boolean} [varies] repeated requests must not all get the same body (a random row per request)
 *
 * @typedef {object} Probe a request that verification sends besides the measured one (negative cases, follow-ups)
 * @property {string} name what it proves, e.g. "text of 4 characters is rejected"
 * @property {RequestSpec} request
 * @property {ResponseExpectation} expect
 *
 * @typedef {object} WebSocketExchange what a WebSocket scenario sends once connected; the SUT echoes every message as it came
 * @property {string} path where the SUT upgrades a GET to WebSocket
 * @property {string} text a text message
 * @property {string} binaryBase64 a binary message, base64: fixed bytes, echoed as binary
 * @property {string[]} burst text messages sent at once, echoed in the order sent
 * @property {number} closeCode the status of the client's close frame, and of the SUT's answer to it
 * @property {{ min: number, max: number }} plainRequestStatus the range of the status a GET on `path` without an upgrade gets
 *
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} summary
 * @property {import('./protocols.js').ProtocolName} protocol what the scenario is spoken in (`http1` unless it says otherwise): what the
 *   SUT serves for it and what verification and load speak to it (protocols.js)
 * @property {RequestSpec} request the request that verification checks first and load then repeats
 * @property {ResponseExpectation} expect
 * @property {Probe[]} probes checked by verification in order, after the measured request; never loaded
 * @property {WebSocketExchange} [websocket] a WebSocket scenario's messages: the request above is its upgrade
 * @property {('redis' | 'postgres' | 'sqlite')[]} [services] data services the scenario needs; the harness provides them
 * @property {'redis' | 'postgres'} [queryCountedBy] the service whose own counters must show one query per request
 * @property {boolean} waitsOnIo its work waits on I/O (a query to a database, a read of a file): the SUT is not cpu-bound there, so its
 *   cpu cost per request says how little it did while waiting more than how dear its code is (false unless it says otherwise)
 * @property {number} countWeight its instructions per request against plaintext's (node-http, 2026-11-26): the shared work its route
 *   does (fibonacci, a query, a body to parse) is what sets the pace of a count, and so the expected time of a counted cell
 */

/**
 * @template T
 * @param {T} value
 * @returns {Readonly<T>}
 */
function deepFreeze (value) {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

/**
 * Fills the optional parts of a scenario and freezes it: scenarios are data, shared by every run.
 * @param {Omit<Scenario, 'probes' | 'request' | 'protocol' | 'waitsOnIo'> & { request: RequestSpec, probes?: Probe[],
 *   protocol?: Scenario['protocol'], waitsOnIo?: boolean }} scenario
 * @returns {Readonly<Scenario>}
 */
export function defineScenario (scenario) {
  const withRequestDefaults = (/** @type {RequestSpec} */ request) => ({ headers: {}, body: null, ...request })
  return deepFreeze({
    protocol: /** @type {Scenario['protocol']} */ ('http1'),
    waitsOnIo: false,
    ...scenario,
    request: withRequestDefaults(scenario.request),
    probes: (scenario.probes ?? []).map((probe) => ({ ...probe, request: withRequestDefaults(probe.request) }))
  })
}

/**
 * The request sent `index`-th (from 0): the same request every time, or with generated parameters, the next drawn one in turn.
 * @param {RequestSpec} request @param {number} index
 * @returns {RequestSpec}
 */
export function nthRequest (request, index) {
  if (!request.inTurn) return request
  return { ...request, ...request.inTurn[index % request.inTurn.length] }
}
