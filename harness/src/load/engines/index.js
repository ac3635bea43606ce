// @ts-check
// The load engines, in the order help and calibration list them. Everything that runs, checks, records or
// calibrates an engine iterates this list or looks an engine up here; adding one is a folder and a line below.
import { DynoError } from '../../errors.js'
import { autocannonEngine } from './autocannon/autocannon-engine.js'
import { nativeEngine } from './native/native-engine.js'
import { wrkEngine } from './wrk/wrk-engine.js'

/** @type {readonly import('./engine.js').Engine[]} */
export const ENGINES = Object.freeze([autocannonEngine, wrkEngine, nativeEngine])

/** @type {readonly import('./engine.js').EngineName[]} */
export const ENGINE_NAMES = Object.freeze(ENGINES.map((engine) => engine.name))

/**
 * @param {string} name
 * @returns {import('./engine.js').Engine}
 */
export function engineNamed (name) {
  const engine = ENGINES.find((candidate) => candidate.name === name)
  if (!engine) throw new DynoError('DYNO_ERR_INVALID_OPTION', `\`--engine\` must be one of ${ENGINE_NAMES.join(', ')}, got \`${name}\``)
  return engine
}

/**
 * Why `load` cannot run on the engine here (not installed, or settings it cannot honour), naming what to do; null: it can.
 * @param {import('./engine.js').Engine} engine @param {import('./engine.js').EngineLoad} load
 * @returns {string | null}
 */
export function engineProblem (engine, load) {
  const found = engine.availability()
  if (!found.ok) {
    const others = ENGINES.filter((other) => other !== engine && other.availability().ok).map((other) => other.name)
    return `\`--engine ${engine.name}\`: ${found.reason}; allowed engines here: ${others.join(', ')}`
  }
  return engine.refusal(load)
}
