// @ts-check
// The scenarios an OpenAPI 3 document gives a service's config: one per operation for which a request can be made (from its examples,
// or from its schemas), expecting its first success status and, where it answers JSON, a body its response schema accepts. An operation
// no request can be made for is listed with why.
import { inlineRefs } from './inline-refs.js'
import { sampleValue } from './sample-value.js'

const METHODS = ['get', 'post', 'put', 'delete', 'patch']
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/

/**
 * @typedef {{ name: string, summary: string, request: import('../read-app-config.js').AppRequest,
 *   expect: import('../read-app-config.js').AppExpect }} ConfigScenario
 */

/**
 * @param {Record<string, any>} document
 * @returns {{ scenarios: ConfigScenario[], skipped: { operation: string, why: string }[] }}
 */
export function openApiScenarios (document) {
  if (typeof document?.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new Error(`it is not an OpenAPI 3 document (its \`openapi\` field is ${JSON.stringify(document?.openapi)})`)
  }
  /** @type {ConfigScenario[]} */
  const scenarios = []
  const skipped = []
  const taken = new Set()
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS.filter((name) => pathItem?.[name])) {
      const operation = `${method.toUpperCase()} ${path}`
      try {
        const scenario = scenarioOf(document, path, method, pathItem)
        scenario.name = uniqueName(scenario.name, taken)
        scenarios.push(scenario)
      } catch (error) {
        skipped.push({ operation, why: /** @type {Error} */ (error).message })
      }
    }
  }
  return { scenarios, skipped }
}

/**
 * @param {Record<string, any>} document @param {string} path @param {string} method @param {Record<string, any>} pathItem
 * @returns {ConfigScenario}
 */
function scenarioOf (document, path, method, pathItem) {
  const operation = pathItem[method]
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]
    .map((parameter) => /** @type {any} */ (inlineRefs(parameter, document)))
  /** @type {Record<string, string>} */
  const headers = {}
  let filled = path
  const query = []
  for (const parameter of parameters) {
    if (parameter.in !== 'path' && !parameter.required) continue
    if (parameter.in === 'cookie') throw new Error(`it needs the cookie ${parameter.name}, and dyno sends none`)
    const value = String(exampleOf(parameter, `parameter ${parameter.name}`))
    if (parameter.in === 'path') filled = filled.replaceAll(`{${parameter.name}}`, encodeURIComponent(value))
    if (parameter.in === 'query') query.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(value)}`)
    if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = value
  }
  if (/[{}]/.test(filled)) throw new Error(`its path keeps a parameter it does not describe (${filled})`)
  const body = requestBody(document, operation.requestBody)
  if (body !== null) headers['content-type'] = 'application/json'
  const request = {
    method: method.toUpperCase(),
    path: query.length > 0 ? `${filled}?${query.join('&')}` : filled,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(body === null ? {} : { body: JSON.stringify(body) })
  }
  return {
    name: operation.operationId ?? `${method}-${path}`,
    summary: operation.summary ?? `${method.toUpperCase()} ${path}`,
    request,
    expect: expectation(document, operation.responses ?? {})
  }
}

/** @param {Record<string, any>} document @param {any} requestBody @returns {unknown} the JSON to send, or null for no body */
function requestBody (document, requestBody) {
  if (!requestBody) return null
  const body = /** @type {any} */ (inlineRefs(requestBody, document))
  const media = Object.entries(body.content ?? {}).find(([type]) => JSON_MEDIA.test(type))?.[1]
  if (!media) {
    if (!body.required) return null
    throw new Error(`its body is ${Object.keys(body.content ?? {}).join(', ') || 'of no type'}, and dyno makes JSON bodies only`)
  }
  return exampleOf(media, 'its body')
}

/** @param {Record<string, any>} document @param {Record<string, any>} responses @returns {import('../read-app-config.js').AppExpect} */
function expectation (document, responses) {
  const success = Object.keys(responses).filter((code) => /^2\d\d$/.test(code)).sort()[0]
  if (!success) throw new Error('it describes no success status (2xx)')
  const response = /** @type {any} */ (inlineRefs(responses[success], document))
  const json = Object.entries(response.content ?? {}).find(([type]) => JSON_MEDIA.test(type))
  if (!json) return { status: Number(success) }
  const [type, media] = json
  return { status: Number(success), contentType: type, ...(media.schema ? { body: { schema: media.schema } } : {}) }
}

/** @param {any} holder a parameter or a media type @param {string} what */
function exampleOf (holder, what) {
  if (holder.example !== undefined) return holder.example
  const first = Object.values(holder.examples ?? {})[0]
  if (first && typeof first === 'object' && 'value' in first) return first.value
  try {
    return sampleValue(holder.schema)
  } catch (error) {
    throw new Error(`${what}: ${/** @type {Error} */ (error).message}`)
  }
}

/** @param {string} wanted @param {Set<string>} taken @returns {string} a name the config allows, not taken yet */
function uniqueName (wanted, taken) {
  const base = wanted.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+|-+$/g, '')
    .slice(0, 60) || 'operation'
  let name = base
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`
  taken.add(name)
  return name
}
