// @ts-check
/**
 * @typedef {object} RequestSpec
 * @property {'GET'|'POST'|'PUT'|'DELETE'|'PATCH'} method
 * @property {string} path path and query string
 * @property {Record<string, string>} [headers]
 * @property {string | null} [body]
 *
 * @typedef {object} BodyExpectation one of: exact text, deep-equal JSON, or JSON a named check accepts
 * @property {string} [text] the body must equal this text exactly
 * @property {unknown} [json] the body must parse as JSON deep-equal to this value
 * @property {keyof typeof import('./body-checks.js').BODY_CHECKS} [check] the body must parse as JSON that this shared check accepts
 *
 * @typedef {object} ResponseExpectation
 * @property {number} status
 * @property {string | null} contentType the media type (`type/subtype`); parameters such as charset are allowed; null: not checked
 * @property {BodyExpectation | null} body null: not checked
 * @property {boolean} [noStackTrace] the body must not contain a stack trace
 * @property {boolean} [varies] repeated requests must not all get the same body (a random row per request)
 *
 * @typedef {object} Probe a request that verification sends besides the measured one (negative cases, follow-ups)
 * @property {string} name what it proves, e.g. "text of 4 characters is rejected"
 * @property {RequestSpec} request
 * @property {ResponseExpectation} expect
 *
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} summary
 * @property {RequestSpec} request the request that verification checks first and load then repeats
 * @property {ResponseExpectation} expect
 * @property {Probe[]} probes checked by verification in order, after the measured request; never loaded
 * @property {('redis' | 'postgres' | 'sqlite')[]} [services] data services the scenario needs; the harness provides them
 * @property {'redis' | 'postgres'} [queryCountedBy] the service whose own counters must show one query per request
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
 * @param {Omit<Scenario, 'probes' | 'request'> & { request: RequestSpec, probes?: Probe[] }} scenario
 * @returns {Readonly<Scenario>}
 */
export function defineScenario (scenario) {
  const withRequestDefaults = (/** @type {RequestSpec} */ request) => ({ headers: {}, body: null, ...request })
  return deepFreeze({
    ...scenario,
    request: withRequestDefaults(scenario.request),
    probes: (scenario.probes ?? []).map((probe) => ({ ...probe, request: withRequestDefaults(probe.request) }))
  })
}
