// @ts-check
// A request's generated parameters (`request.params`): each `{name}` of its path replaced by a value drawn from what the config
// allows. The draws are made once, from the scenario's name, so every run and every commit sends the same paths in the same order:
// counts compare like with like, and load sends them in turn.
import { createHash } from 'node:crypto'
import { DynoError } from '../../platform/errors.js'

/** How many paths a scenario with parameters sends in turn. */
export const GENERATED_PATHS = 512

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]{0,31})\}/g

/** @typedef {{ integer: { min: number, max: number } } | { oneOf: string[] }} ParamSpec */

/**
 * @param {string} template the path, `{name}` where a parameter goes
 * @param {Record<string, ParamSpec>} params
 * @param {{ seed: string, file: string, where: string }} origin seed: the scenario's name; where: the request's path in the config
 * @returns {string[]} GENERATED_PATHS paths
 * @throws {DynoError} DYNO_ERR_APP_CONFIG naming each placeholder without a parameter, parameter without a placeholder, or empty range
 */
export function generatedPaths (template, params, { seed, file, where }) {
  const placed = new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]))
  const given = Object.keys(params)
  const problems = [
    ...[...placed].filter((name) => !Object.hasOwn(params, name))
      .map((name) => `${where}/path: \`{${name}}\` has no parameter; give params.${name}`),
    ...given.filter((name) => !placed.has(name)).map((name) => `${where}/params/${name}: the path has no \`{${name}}\``),
    ...given.flatMap((name) => {
      const spec = params[name]
      if (!('integer' in spec) || spec.integer.min <= spec.integer.max) return []
      return [`${where}/params/${name}/integer: min ${spec.integer.min} is above max ${spec.integer.max}`]
    })
  ]
  if (problems.length > 0) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${file} breaks ${problems.length} rule(s):\n${problems.join('\n')}`)
  }
  return Array.from({ length: GENERATED_PATHS }, (_, index) =>
    template.replace(PLACEHOLDER, (_, /** @type {string} */ name) => drawn(params[name], `${seed}\0${index}\0${name}`)))
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
