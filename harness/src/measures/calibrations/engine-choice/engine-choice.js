// @ts-check
// One engine per run, so that no table sets two clients' figures side by side (docs/measuring.md, "One engine per run").
// `--engine auto` chooses among the engines that say they may be chosen (`autoPreference` in their descriptors), most
// preferred first: the first that keeps up with the fastest SUT of the field on this machine, with this pinning, at every
// connection level of the run (by its cpu share and by its rate beside the fastest engine's: keeps-up.js); where none does, the
// fastest engine here, whose generator-bound cells then show the limit of this machine. Today that is autocannon where it keeps
// up, the client most published figures were made with, and the native engine where it would be the bottleneck. What decides is
// measured once per machine, by the calibration of engine-calibration.js, and kept in the cache directory; it is measured again
// when the machine, Node, an engine, the pinning or dyno changes, and a file from anywhere else is ignored with one line saying
// why. The rule is applied as the choice is made, so a calibration kept before it is judged by it too.
import { join } from 'node:path'
import { AUTO_CANDIDATES, speaksAll } from '../../../load/engines/index.js'
import { DynoError } from '../../../platform/errors.js'
import { writeJsonAtomic } from '../../../records/write-json-atomic.js'
import { discoverSuts } from '../../../subjects/suts/discover-suts.js'
import { sealOf } from '../../../platform/util/cache-seal.js'
import { makeDirectory } from '../../../platform/util/checked-paths.js'
import { calibrationRows } from './engine-calibration.js'
import { keptUpAt } from './keeps-up.js'
import { machineKey } from '../machine-key.js'
import { readStoredCalibration } from '../stored-calibration.js'

export const CALIBRATION_FILE = 'engine-calibration.json'
/** The SUTs that set the ceiling of the field here, fastest first: the calibration measures against the first that runs. */
const CEILING_SUTS = ['uwebsockets', 'node-net']
/** How long each engine is measured against it: enough for the generator-bound rule, short enough to pass unnoticed once. */
const CALIBRATION_LOAD = Object.freeze({ warmupSec: 1, durationSec: 3 })

/**
 * @typedef {object} EngineFigures one engine against the ceiling SUT
 * @property {number | null} requestsPerSec
 * @property {number | null} generatorSharePct
 * @property {boolean | null} generatorBound
 * @property {string | null} [disturbed] what other programs took of the cpus while it was measured (after it was measured again), when
 *   more than a cell may lose; absent in calibrations written before it was judged
 *
 * @typedef {object} LevelCalibration
 * @property {string} measuredAt
 * @property {string} sut
 * @property {Record<string, EngineFigures>} engines each candidate's figures, by engine name
 *
 * @typedef {object} EngineChoice what run.json records of how the run's engine was chosen
 * @property {import('../../../load/engines/engine.js').EngineName} engine
 * @property {'given' | 'calibration' | 'only engine'} by
 * @property {string} reason in words
 * @property {string | null} calibrationFile
 * @property {Record<string, LevelCalibration>} levels the calibration of each connection level, by level
 */

/**
 * Reads the stored calibration when it holds for this machine now; otherwise says in one line why it is not used.
 * @param {string} file @param {string} cacheDir its directory, whose seal it carries @param {import('../machine-key.js').MachineKey} key
 * @returns {{ levels: Record<string, LevelCalibration>, note: string | null }}
 */
export function readEngineCalibration (file, cacheDir, key) {
  const { content: stored, note } = readStoredCalibration(file, cacheDir, { what: 'the engine calibration', key })
  if (!stored) return { levels: {}, note }
  if (typeof stored.levels !== 'object' || stored.levels === null) {
    return { levels: {}, note: `the engine calibration ${file} was measured with another format: ignored, measured again` }
  }
  const storedLevels = /** @type {Record<string, unknown>} */ (stored.levels)
  // Each level's figures are read as they must be; a level that lacks one is measured again, named in the note.
  const names = Object.keys(key.engines)
  const levels = /** @type {Record<string, LevelCalibration>} */ (
    Object.fromEntries(Object.entries(storedLevels).filter(([, level]) => levelProblem(level, names) === null)))
  const dropped = Object.entries(storedLevels).filter(([, level]) => levelProblem(level, names) !== null)
    .map(([name, level]) => `level ${name.slice(0, 20)}: ${levelProblem(level, names)}`)
  return {
    levels,
    note: dropped.length > 0
      ? `the engine calibration ${file} holds levels dyno cannot read (${dropped.slice(0, 3).join('; ')}): those ` +
      'measured again'
      : null
  }
}

/**
 * What is wrong with one level of a stored calibration, or null.
 * @param {unknown} level @param {string[]} names the engines it must hold figures of
 * @returns {string | null}
 */
function levelProblem (level, names) {
  if (!level || typeof level !== 'object') return 'not an object'
  const { measuredAt, sut, engines } = /** @type {Record<string, unknown>} */ (level)
  if (typeof measuredAt !== 'string' || Number.isNaN(Date.parse(measuredAt))) return 'measuredAt is not a date'
  if (typeof sut !== 'string') return 'sut is not a name'
  if (!engines || typeof engines !== 'object') return 'engines is not an object'
  for (const name of names) {
    const figures = /** @type {Record<string, unknown>} */ (engines)[name]
    if (!figures || typeof figures !== 'object') return `engines.${name} is not an object`
    const { requestsPerSec, generatorSharePct, generatorBound } = /** @type {Record<string, unknown>} */ (figures)
    const numberOrNull = (/** @type {unknown} */ value) =>
      value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0)
    if (!numberOrNull(requestsPerSec) || !numberOrNull(generatorSharePct)) return `engines.${name}'s figures are not numbers`
    if (generatorBound !== null && typeof generatorBound !== 'boolean') return `engines.${name}.generatorBound is not true, false or null`
    const { disturbed } = /** @type {Record<string, unknown>} */ (figures)
    if (disturbed !== undefined && disturbed !== null && typeof disturbed !== 'string') return `engines.${name}.disturbed is not a text`
  }
  return null
}

/**
 * The engine of a run, chosen once: the one given, or with `auto` the one the calibration of this machine chooses among the
 * candidates that run here, measuring the levels it does not hold yet (and storing them).
 * @param {{ given: import('../../../load/engines/engine.js').Engine | null, scenarios: readonly { name: string, protocol: string }[],
 *   connections: number[], pinning: import('../../../platform/pinning/resolve-pinning.js').PinPlan,
 *   cacheDir: string, readyTimeoutSec: number, engineOptions: import('../../../platform/options/option-spec.js').OptionValues, signal:
 *   AbortSignal, log: (line: string) => void }} settings given: the engine `--engine` named; null: `auto`; engineOptions: the values of the
 *   engines' own options
 * @returns {Promise<{ engine: import('../../../load/engines/engine.js').Engine, choice: EngineChoice }>} the engine, and what run.json
 *   records of how it was chosen
 */
export async function chooseEngine ({ given, ...settings }) {
  if (given) return { engine: given, choice: givenChoice(given, `\`--engine ${given.name}\``) }
  return calibratedChoice(settings)
}

/**
 * What run.json records of an engine the user named.
 * @param {import('../../../load/engines/engine.js').Engine} engine @param {string} reason in words
 * @returns {EngineChoice}
 */
export const givenChoice = (engine, reason) => ({ engine: engine.name, by: 'given', reason, calibrationFile: null, levels: {} })

/**
 * `--engine auto`: the choice among the candidates that run here and speak the protocol of every scenario of the run (one engine per run).
 * @param {{ scenarios: readonly { name: string, protocol: string }[], connections: number[],
 *   pinning: import('../../../platform/pinning/resolve-pinning.js').PinPlan, cacheDir: string, readyTimeoutSec: number,
 *   engineOptions: import('../../../platform/options/option-spec.js').OptionValues, signal: AbortSignal,
 *   log: (line: string) => void }} settings
 * @returns {Promise<{ engine: import('../../../load/engines/engine.js').Engine, choice: EngineChoice }>}
 */
async function calibratedChoice ({ scenarios, connections, pinning, cacheDir, readyTimeoutSec, engineOptions, signal, log }) {
  const none = { calibrationFile: null, levels: {} }
  const protocols = [...new Set(scenarios.map((scenario) => scenario.protocol))]
  const speaking = AUTO_CANDIDATES.filter((engine) => speaksAll(engine, scenarios))
  const here = speaking.filter((engine) => engine.availability().ok)
  if (here.length === 0) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', `\`--engine auto\`: no engine here speaks ${protocols.join(', ')} (the protocols of ` +
      `${scenarios.map((scenario) => scenario.name).join(', ')}): ` +
      (speaking.length === 0
        ? 'none of the engines auto chooses among does'
        : speaking.map((engine) => {
          const found = engine.availability(); return `${engine.name}: ` +
          `${found.ok ? '' : found.reason}`
        }).join('; ')))
  }
  if (here.length === 1) {
    const others = AUTO_CANDIDATES.filter((engine) => !here.includes(engine)).map((engine) => {
      const found = engine.availability()
      const why = !speaking.includes(engine)
        ? `speaks ${engine.protocols.join(', ')}, not ` +
        `${protocols.join(', ')}`
        : found.ok ? '' : found.reason
      return `${engine.name}: ${why}`
    })
    const only = speaking.length < AUTO_CANDIDATES.length
      ? `the only engine here that speaks ${protocols.join(', ')}`
      : 'the only ' +
      'engine here'
    return { engine: here[0], choice: { engine: here[0].name, by: 'only engine', reason: `${only} (${others.join('; ')})`, ...none } }
  }
  const file = join(cacheDir, CALIBRATION_FILE)
  const key = machineKey(pinning, here)
  const { levels, note } = readEngineCalibration(file, cacheDir, key)
  if (note) log(`dyno: ${note}`)
  const missing = connections.filter((level) => !levels[String(level)])
  if (missing.length > 0) {
    log(`dyno: measuring which engine keeps up on this machine (once per machine; ${missing.length} connection level` +
      `${missing.length === 1 ? '' : 's'}, kept in ${file})…`)
    Object.assign(levels, await calibrate(missing, here, { pinning, readyTimeoutSec, engineOptions, signal }))
    if (!signal.aborted) {
      makeDirectory(cacheDir)
      writeJsonAtomic(file, { key, levels, seal: sealOf(cacheDir, { key, levels }) })
    }
  }
  const ceiling = levels[String(connections[0])]?.sut ?? CEILING_SUTS[0]
  const keepsUp = (/** @type {import('../../../load/engines/engine.js').Engine} */ engine) =>
    connections.every((level) => keptUpAt(levels[String(level)], engine.name).keepsUp)
  const figures = (/** @type {number} */ level) => `${level} connections: ` + here.map((engine) => {
    const measured = levels[String(level)]?.engines[engine.name]
    const { why } = keptUpAt(levels[String(level)], engine.name)
    return `${engine.name} ${measured?.requestsPerSec ?? '-'} req/s at ${measured?.generatorSharePct ?? '-'}% of its cpus` +
      `${why ? ` (${why})` : ''}`
  }).join(', ')
  const chosen = here.find(keepsUp)
  const passedOver = here.slice(0, chosen ? here.indexOf(chosen) : here.length)
  const fastest = here.find((engine) => engine.fastestHere) ?? here[here.length - 1]
  const engine = chosen ?? fastest
  const boundLevels = connections.filter((level) =>
    passedOver.some((other) => !keptUpAt(levels[String(level)], other.name).keepsUp)
  )
  const then = chosen
    ? `${engine.name} measures every cell`
    : `the fastest here, ${engine.name}, measures every cell, and a cell it cannot keep up with shows the limit of this machine`
  const reason = passedOver.length === 0
    ? `${engine.name} keeps up with ${ceiling} here (${connections.map(figures).join('; ')})`
    : `${passedOver.map((other) => other.name).join(' and ')} ${passedOver.length === 1 ? 'is' : 'are'} the bottleneck against ` +
      `${ceiling} ` +
        `here (${boundLevels.map(figures).join('; ')}): ${then}`
  const disturbed = connections.flatMap((level) => Object.values(levels[String(level)]?.engines ?? {})
    .map((measured) => measured.disturbed).filter((detail) => typeof detail === 'string'))
  const caveat = disturbed.length > 0
    ? `; measured while other programs or the hypervisor took its cpus, after measuring again (${disturbed[0]})`
    : ''
  return { engine, choice: { engine: engine.name, by: 'calibration', reason: reason + caveat, calibrationFile: file, levels } }
}

/**
 * @param {number[]} connections @param {readonly import('../../../load/engines/engine.js').Engine[]} engines the candidates that run here
 * @param {{ pinning: import('../../../platform/pinning/resolve-pinning.js').PinPlan, readyTimeoutSec: number,
 *   engineOptions: import('../../../platform/options/option-spec.js').OptionValues, signal: AbortSignal }} context
 * @returns {Promise<Record<string, LevelCalibration>>}
 */
async function calibrate (connections, engines, context) {
  for (const name of CEILING_SUTS) {
    const sut = discoverSuts().find((candidate) => candidate.name === name)
    if (!sut) continue
    const rows = await calibrationRows({ suts: [sut], connections, ...CALIBRATION_LOAD, engines, firstWayOnly: true, ...context })
    if (rows.length === 0) continue // it refused to run here (uWebSockets.js without its native build)
    const of = (/** @type {number} */ level, /** @type {string} */ engine) => {
      const row = rows.find((candidate) => candidate.connections === level && candidate.engine === engine)
      return {
        requestsPerSec: row?.summary ? Math.round(row.summary.requestsPerSec.mean) : null,
        generatorSharePct: row?.generatorSharePct ?? null,
        generatorBound: row?.error ? null : row?.generatorBound ?? null,
        disturbed: row?.disturbed ?? null
      }
    }
    const measuredAt = new Date().toISOString()
    return Object.fromEntries(connections.map((level) => [String(level), {
      measuredAt, sut: name, engines: Object.fromEntries(engines.map((engine) => [engine.name, of(level, engine.name)]))
    }]))
  }
  return {}
}
