// @ts-check
// Two counts' functions made by hand, as a count writes them (function-profile.js), with known changes: `send` grows far beyond the
// noise, `json` moves within it, `fresh` is gone, `etag` is new, a function named like markup grows and a package named like markup
// stays; a key and a package named like an object's own properties must not reach one. The layers add up to 42,000 instructions per
// request in the baseline, so that the cell's noise is the threshold's floor, 0.5 %: 210.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FOUR_REPEATS } from './compare-inputs.js'
import { asCount } from './count-record.js'

/**
 * @typedef {import('../../src/measures/instructions/counts/function-profile.js').FunctionProfile} FunctionProfile
 * @typedef {import('../../src/measures/instructions/counts/function-profile.js').CountedFunction} CountedFunction
 * @typedef {import('../../src/measures/instructions/counts/code-layers.js').LayerName} LayerName
 */

export const HOSTILE_NAME = '<script>alert(1)</script>'
export const HOSTILE_FILE = '"onload=alert(1)//x.js'
export const HOSTILE_PACKAGE = '"><img src=x onerror=alert(1)>'
export const NOISE_PER_REQUEST = 210

/**
 * @param {string} name @param {string | null} file @param {string | null} pkg @param {LayerName} layer @param {number} chargedPerRequest
 * @returns {CountedFunction}
 */
const counted = (name, file, pkg, layer, chargedPerRequest) => ({
  key: file === null ? name : `${name} ${file}`,
  name,
  file,
  line: file === null ? null : 10,
  package: pkg,
  layer,
  selfPerRequest: chargedPerRequest / 2,
  chargedPerRequest
})

/** @type {FunctionProfile} */
export const BASELINE = {
  layers: { framework: 12_000, dependencies: 2_000, app: 300, node: 20_000, runtime: 7_700, collector: 0 },
  functions: [
    counted('send', 'express/lib/response.js', 'express', 'framework', 3_000),
    counted('json', 'express/lib/response.js', 'express', 'framework', 2_000),
    counted(HOSTILE_NAME, HOSTILE_FILE, 'express', 'framework', 4_000),
    counted('fresh', 'fresh/index.js', 'fresh', 'dependencies', 800),
    counted('parse', 'x/index.js', HOSTILE_PACKAGE, 'dependencies', 200),
    counted('route', 'scenarios/src/app.js', null, 'app', 300),
    counted('_storeHeader', 'node:_http_outgoing', null, 'node', 5_000),
    counted('__proto__', null, null, 'runtime', 4_000)
  ],
  keptAbovePerRequest: 50,
  omitted: { functions: 400, selfPerRequest: 9_000 },
  generatedCodeNamed: true
}

/** @type {FunctionProfile} */
export const CANDIDATE = {
  layers: { framework: 13_550, dependencies: 1_800, app: 300, node: 20_000, runtime: 7_700, collector: 0 },
  functions: [
    counted('send', 'express/lib/response.js', 'express', 'framework', 4_000),
    counted('json', 'express/lib/response.js', 'express', 'framework', 2_050),
    counted(HOSTILE_NAME, HOSTILE_FILE, 'express', 'framework', 4_500),
    counted('etag', 'etag/index.js', 'etag', 'dependencies', 600),
    counted('parse', 'x/index.js', HOSTILE_PACKAGE, 'dependencies', 200),
    counted('route', 'scenarios/src/app.js', null, 'app', 300),
    counted('_storeHeader', 'node:_http_outgoing', null, 'node', 5_000),
    counted('__proto__', null, null, 'runtime', 4_000)
  ],
  keptAbovePerRequest: 50,
  omitted: { functions: 400, selfPerRequest: 9_000 },
  generatedCodeNamed: true
}

/** @param {FunctionProfile} profile @returns {number} */
export const totalOf = (profile) => Object.values(profile.layers).reduce((sum, value) => sum + (value ?? 0), 0)

/**
 * A count as explain-change.js reads it: eight windows alike (so that the noise is the threshold's floor), and the functions.
 * @param {FunctionProfile} profile
 * @returns {import('../../src/reports/explain/explain-change.js').ExplainedCount}
 */
export const countOf = (profile) => ({
  label: 'express × json',
  file: profile === BASELINE ? 'baseline.json' : 'candidate.json',
  instructionsPerRequest: totalOf(profile),
  programPerWindow: Array.from({ length: 8 }, () => totalOf(profile)),
  windowLayers: Array.from({ length: 8 }, () => profile.layers),
  profile
})

/**
 * A result of a count with the profile's functions, made from a committed run's result file: what `dyno run --measure instructions`
 * writes, eight windows of one figure.
 * @param {FunctionProfile} profile @returns {any}
 */
export function countRecord (profile) {
  const index = JSON.parse(readFileSync(join(FOUR_REPEATS, 'run.json'), 'utf8'))
  const record = JSON.parse(readFileSync(join(FOUR_REPEATS, index.results[0].file), 'utf8'))
  return asCount(record, Array.from({ length: 8 }, () => totalOf(profile)), { functions: profile })
}
