// @ts-check
// The load engines, in the order help and calibration list them. Everything that runs, checks, records or
// calibrates an engine iterates this list or looks an engine up here; adding one is a folder and a line below.
import { DynoError } from '../../platform/errors.js'
import { autocannonEngine } from './autocannon/autocannon-engine.js'
import { nativeEngine } from './native/native-descriptor.js'
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

/** The engines `--engine auto` chooses among, the most preferred first (autoPreference). */
export const AUTO_CANDIDATES = Object.freeze(ENGINES.filter((engine) => engine.autoPreference !== null)
  .sort((a, b) => /** @type {number} */ (a.autoPreference) - /** @type {number} */ (b.autoPreference)))

/** Every name a result may record as its engine (`load.engine`). */
export const RECORDED_ENGINE_NAMES = Object.freeze(ENGINES.flatMap((engine) => engine.recordedNames))

/**
 * @param {string} recorded a result's `load.engine`
 * @returns {import('./engine.js').Engine | null} the engine that sent its requests; null: a name no engine records
 */
export const engineRecorded = (recorded) => ENGINES.find((engine) => engine.recordedNames.includes(/** @type {any} */ (recorded))) ?? null

/**
 * Whether a result's engine set the pace while being the fastest client dyno has here: the cell shows the limit of this machine.
 * @param {{ load: { engine: string }, summary?: { generatorBound?: boolean } | null }} record
 * @returns {boolean}
 */
export const atMachineLimit = (record) =>
  record.summary?.generatorBound === true && engineRecorded(record.load.engine)?.fastestHere === true

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
  const streams = load.streams ?? 1
  if (streams > engine.maxStreams) {
    const able = ENGINES.filter((other) => other.maxStreams >= streams).map((other) => `${other.name} (up to ${other.maxStreams})`)
    const kept = engine.maxStreams === 1 ? 'one request' : `at most ${engine.maxStreams}`
    return `\`--streams ${streams}\`: ${engine.name} keeps ${kept} in flight ` +
      `per connection; engines that keep ${streams}: ${able.join(', ') || 'none'}`
  }
  return engine.refusal(load)
}

/**
 * Whether the engine speaks every protocol the scenarios are spoken in.
 * @param {import('./engine.js').Engine} engine @param {readonly { protocol: string }[]} scenarios
 */
export const speaksAll = (engine, scenarios) => scenarios.every((scenario) => engine.protocols.includes(scenario.protocol))

/**
 * Why the engine cannot load these scenarios: those in a protocol it does not speak, each named with its protocol, and the engines
 * that speak them; null: it speaks them all.
 * @param {import('./engine.js').Engine} engine @param {readonly { name: string, protocol: string }[]} scenarios
 * @returns {string | null}
 */
export function protocolProblem (engine, scenarios) {
  const unspoken = scenarios.filter((scenario) => !engine.protocols.includes(scenario.protocol))
  if (unspoken.length === 0) return null
  const speakers = ENGINES.filter((other) => speaksAll(other, unspoken)).map((other) => `\`--engine ${other.name}\``)
  return `\`--engine ${engine.name}\` speaks ${engine.protocols.join(', ')}; it cannot load ` +
    `${unspoken.map((scenario) => `${scenario.name} (protocol ${scenario.protocol})`).join(', ')}: ` +
    `${speakers.length > 0 ? `give ${speakers.join(' or ')}, ` : ''}or leave ${unspoken.length === 1 ? 'it' : 'them'} out of ` +
      '`--scenarios`'
}
