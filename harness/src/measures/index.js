// @ts-check
// The measures dyno knows, in help order: `--measure` takes their names, a result records one, and every place that differs between them
// asks the measure object (measure.js). Adding one is a folder beside these and one line here.
import { DynoError } from '../platform/errors.js'
import { capacity } from './capacity/capacity.js'
import { instructions } from './instructions/instructions.js'
import { wallClock } from './wall-clock/wall-clock.js'

/** @type {readonly import('./measure.js').Measure[]} */
export const MEASURES = Object.freeze([wallClock, instructions, capacity])

/** @returns {string[]} the names `--measure` takes */
export const measureNames = () => MEASURES.map((measure) => measure.name)

/**
 * @param {string} name as `--measure` takes it, or a result records it
 * @returns {import('./measure.js').Measure}
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION naming the measure and those there are
 */
export function measureNamed (name) {
  const found = MEASURES.find((measure) => measure.name === name)
  if (!found) throw new DynoError('DYNO_ERR_INVALID_OPTION', `unknown measure \`${name}\`; there are ${measureNames().join(', ')}`)
  return found
}

/**
 * The measure a result was made with: the one its load records (results written before `--measure` existed are wall-clock).
 * @param {{ load?: { measure?: string } }} record
 * @returns {import('./measure.js').Measure}
 */
export const measureOf = (record) => MEASURES.find((measure) => measure.name === record.load?.measure) ?? wallClock

/** The measure of a run that names none. */
export const DEFAULT_MEASURE = wallClock

/**
 * The measure of a run: its results' (a run with none is wall-clock, as `dyno run` measures unless told).
 * @param {{ records: { load?: { measure?: string } }[] }} run
 * @returns {import('./measure.js').Measure}
 */
export const measureOfRun = (run) => run.records.length > 0 ? measureOf(run.records[0]) : DEFAULT_MEASURE

/**
 * A run's load settings from the parsed options of `dyno run`, as the measure they name shapes and checks them.
 * @param {import('./load-settings.js').SettingsInput} options @param {import('../load/engines/engine.js').Engine} engine
 * @returns {import('../records/result-record.js').LoadSettings}
 */
export const loadSettingsOf = (options, engine) => measureNamed(options.measure).plan.settings(options, engine)
