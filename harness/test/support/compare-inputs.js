// @ts-check
// Inputs for `dyno compare` with known answers: copies of committed real runs (test/fixtures/compare-runs, each
// written once by `dyno run`; see the README there) whose figures are then set, repeat by repeat. A comparison
// reads the shape of a result file (env, load, repeats, histograms), never measures: no test of compare needs a
// benchmark of its own.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { schemaErrors } from './result-schemas.js'
import { writtenIndex } from './written-run.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/compare-runs/', import.meta.url))

/** node-http on json, 10 connections, 0.5 s, no warmup, 4 repeats (seed 7). */
export const FOUR_REPEATS = join(FIXTURES, 'node-http-json-4-repeats')
/** The same with 8 repeats: in the order they started, repeat 1 to 8. */
export const EIGHT_REPEATS = join(FIXTURES, 'node-http-json-8-repeats')

/**
 * A copy of a committed run directory in a fresh temporary directory, to be changed at will.
 * @param {string} fixture FOUR_REPEATS or EIGHT_REPEATS
 * @returns {string} the copy
 */
export function copyOfRun (fixture) {
  const copy = join(mkdtempSync(join(tmpdir(), 'dyno-compare-side-')), 'run')
  cpSync(fixture, copy, { recursive: true })
  return copy
}

/**
 * A copy of a committed run whose result files carry the given figures, repeat by repeat (one figure
 * for each repeat of the run), so that a comparison of two copies has known answers. Every result file
 * written still passes the result schema.
 * @param {string} fixture FOUR_REPEATS or EIGHT_REPEATS
 * @param {{ requestsPerSec: number[], p99Ms: number[], edit?: (record: any, repeat: number) => void }} figures
 * @returns {string} the copy
 */
export function runWithFigures (fixture, { requestsPerSec, p99Ms, edit }) {
  const copy = copyOfRun(fixture)
  const index = writtenIndex(copy)
  for (const figures of [requestsPerSec, p99Ms]) {
    if (figures.length !== index.results.length) {
      throw new Error(`${fixture} has ${index.results.length} repeats; got ${figures.length} figures`)
    }
  }
  for (const entry of index.results) {
    const path = join(copy, entry.file)
    const record = JSON.parse(readFileSync(path, 'utf8'))
    const position = record.repeat.index - 1
    record.summary.requestsPerSec.mean = requestsPerSec[position]
    record.summary.latencyMs.p99 = p99Ms[position]
    edit?.(record, record.repeat.index)
    const errors = schemaErrors('result', record)
    if (errors.length > 0) throw new Error(`${entry.file} of ${fixture} no longer passes the result schema: ${errors.join('; ')}`)
    writeFileSync(path, JSON.stringify(record, null, 2))
  }
  return copy
}

/** node-http on json, capacity within p99<=10ms, 10 connections, steps of 0.5 s, 4 launches (seed 7). */
export const CAPACITY_FOUR_LAUNCHES = join(FIXTURES, 'node-http-json-capacity-4-launches')

/**
 * A copy of a committed capacity run whose launches carry the given capacities and closed-loop ceilings, launch by launch, so that a
 * comparison of two copies has known answers. Every result file written still passes the result schema.
 * @param {{ capacityPerSec: number[], ceilingPerSec: number[], objective?: string }} figures
 * @returns {string} the copy
 */
export function capacityRunWithFigures ({ capacityPerSec, ceilingPerSec, objective }) {
  const copy = copyOfRun(CAPACITY_FOUR_LAUNCHES)
  const index = writtenIndex(copy)
  for (const entry of index.results) {
    const path = join(copy, entry.file)
    const record = JSON.parse(readFileSync(path, 'utf8'))
    const position = record.repeat.index - 1
    record.capacity.capacityPerSec = capacityPerSec[position]
    record.capacity.ceiling.requestsPerSec = ceilingPerSec[position]
    if (objective) {
      record.capacity.objective = objective
      record.load.capacity.objective = objective
    }
    const errors = schemaErrors('result', record)
    if (errors.length > 0) throw new Error(`${entry.file} of the capacity fixture no longer passes the result schema: ${errors.join('; ')}`)
    writeFileSync(path, JSON.stringify(record, null, 2))
  }
  return copy
}
