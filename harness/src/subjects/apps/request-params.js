// @ts-check
// A request's generated parameters (`request.params`): each `{name}` of its path, its header values and its body replaced by a value
// drawn from what the config allows, the same value wherever the name stands in one request. The draws are made once, from the
// scenario's name, so every run and every commit sends the same requests in the same order: counts compare like with like, and load
// sends them in turn.
import { createHash } from 'node:crypto'
import { DynoError } from '../../platform/errors.js'

/** How many requests a scenario with parameters sends in turn. */
export const DRAWN_REQUESTS = 512

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]{0,31})\}/g

/**
 * @typedef {{ integer: { min: number, max: number } } | { oneOf: string[] }} ParamSpec
 * @typedef {import('@dyno/scenarios').DrawnRequest} DrawnRequest
 */

/**
 * @param {DrawnRequest} template `{name}` where a parameter goes: in the path, a header's value or the body
 * @param {Record<string, ParamSpec>} params
 * @param {{ seed: string, file: string, where: string, count?: number }} origin seed: the scenario's name (and a mix's entry); where:
 *   the request's path in the config; count: how many (default DRAWN_REQUESTS)
 * @returns {DrawnRequest[]}
 * @throws {DynoError} DYNO_ERR_APP_CONFIG naming each placeholder without a parameter, parameter without a placeholder, or empty range
 */
export function drawnRequests (template, params, { seed, file, where, count = DRAWN_REQUESTS }) {
  const places = [
    ['path', template.path],
    ...Object.entries(template.headers).map(([name, value]) => [`headers/${name}`, value]),
    ['body', template.body ?? '']
  ]
  const placed = new Set()
  const problems = []
  for (const [place, text] of places) {
    for (const [, name] of text.matchAll(PLACEHOLDER)) {
      placed.add(name)
      if (!Object.hasOwn(params, name)) problems.push(`${where}/${place}: \`{${name}}\` has no parameter; give params.${name}`)
    }
  }
  for (const [name, spec] of Object.entries(params)) {
    if (!placed.has(name)) problems.push(`${where}/params/${name}: neither the path, a header nor the body has \`{${name}}\``)
    if ('integer' in spec && spec.integer.min > spec.integer.max) {
      problems.push(`${where}/params/${name}/integer: min ${spec.integer.min} is above max ${spec.integer.max}`)
    }
  }
  if (problems.length > 0) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${file} breaks ${problems.length} rule(s):\n${[...new Set(problems)].join('\n')}`)
  }
  return Array.from({ length: count }, (_, index) => {
    const fill = (/** @type {string} */ text) =>
      text.replace(PLACEHOLDER, (_, /** @type {string} */ name) => drawn(params[name], `${seed}\0${index}\0${name}`))
    return {
      ...template,
      path: fill(template.path),
      headers: Object.fromEntries(Object.entries(template.headers).map(([name, value]) => [name, fill(value)])),
      body: template.body === null ? null : fill(template.body)
    }
  })
}

/**
 * One value of a parameter, drawn uniformly by a hash of `key`.
 * @param {ParamSpec} spec @param {string} key
 * @returns {string}
 */
function drawn (spec, key) {
  const unit = createHash('sha256').update(key).digest().readUIntBE(0, 6) / 2 ** 48
  if ('integer' in spec) return String(spec.integer.min + Math.floor(unit * (spec.integer.max - spec.integer.min + 1)))
  return spec.oneOf[Math.floor(unit * spec.oneOf.length)]
}
