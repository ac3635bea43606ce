// @ts-check
// A count's functions: each function's own and charged instructions per request over the counted windows (function-costs.js), the
// layers' charged instructions per request, and per window the layers' too (their spread between windows is a change's noise). The
// list is bounded: the functions that cost most, own or charged, and what the rest add up to.
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { REPO_ROOT } from '../../../platform/paths.js'
import { CODE_LAYERS } from './code-layers.js'

/**
 * @typedef {import('./function-costs.js').FunctionCost} FunctionCost
 * @typedef {import('./code-layers.js').LayerName} LayerName
 *
 * @typedef {object} CountedFunction
 * @property {string} key
 * @property {string} name
 * @property {string | null} file
 * @property {number | null} line
 * @property {string | null} package
 * @property {LayerName} layer
 * @property {number} selfPerRequest its own instructions
 * @property {number} chargedPerRequest with the native code it ran charged to it (function-costs.js)
 *
 * @typedef {object} FunctionProfile
 * @property {Partial<Record<LayerName, number>>} layers charged instructions per request, by layer
 * @property {CountedFunction[]} functions the costliest, by own or charged instructions, costliest first
 * @property {number} keptAbovePerRequest a function costing less than this, own and charged, is not in the list
 * @property {{ functions: number, selfPerRequest: number }} omitted the functions not in the list and their own instructions
 * @property {boolean} generatedCodeNamed whether V8's generated code was named (a perf map was read for every process)
 * @property {string} [listFile] on disk: the file beside the result that holds `functions` (records/function-list-file.js)
 * @property {string} [listProblem] read back: why `functions` could not be read from listFile
 */

/** The most functions a count keeps: what a change's top functions and new or vanished ones are read from. */
export const KEPT_FUNCTIONS = 250

/** @param {number} value */
const tenths = (value) => Math.round(value * 10) / 10

/**
 * Adds one dump's costs into a window's.
 * @param {Map<string, FunctionCost>} into @param {Map<string, FunctionCost>} costs
 */
export function addFunctionCosts (into, costs) {
  for (const [key, cost] of costs) {
    const held = into.get(key)
    if (!held) into.set(key, { ...cost })
    else {
      held.selfInstructions += cost.selfInstructions
      held.chargedInstructions += cost.chargedInstructions
    }
  }
}

/**
 * @param {Map<string, FunctionCost>} window @param {number} requests
 * @returns {Partial<Record<LayerName, number>>} charged instructions per request by layer
 */
export function layersOf (window, requests) {
  /** @type {Partial<Record<LayerName, number>>} */
  const layers = {}
  for (const { name } of CODE_LAYERS) layers[name] = 0
  for (const cost of window.values()) layers[cost.fn.layer] = (layers[cost.fn.layer] ?? 0) + cost.chargedInstructions
  for (const { name } of CODE_LAYERS) layers[name] = tenths((layers[name] ?? 0) / requests)
  return layers
}

/**
 * @param {Map<string, FunctionCost>[]} windows the counted windows' costs @param {number} windowRequests
 * @param {boolean} generatedCodeNamed
 * @returns {FunctionProfile}
 */
export function functionProfile (windows, windowRequests, generatedCodeNamed) {
  /** @type {Map<string, FunctionCost>} */
  const whole = new Map()
  for (const window of windows) addFunctionCosts(whole, window)
  const requests = Math.max(1, windows.length * windowRequests)
  const ranked = [...whole.values()].sort((a, b) => costliest(b) - costliest(a))
  const kept = ranked.slice(0, KEPT_FUNCTIONS)
  const left = ranked.slice(KEPT_FUNCTIONS)
  return {
    layers: layersOf(whole, requests),
    functions: kept.map(({ fn, selfInstructions, chargedInstructions }) => ({
      key: fn.key,
      name: fn.name,
      file: fn.file,
      line: fn.line,
      package: fn.package,
      layer: fn.layer,
      selfPerRequest: tenths(selfInstructions / requests),
      chargedPerRequest: tenths(chargedInstructions / requests)
    })),
    keptAbovePerRequest: left.length > 0 ? tenths(costliest(left[0]) / requests) : 0,
    omitted: { functions: left.length, selfPerRequest: tenths(left.reduce((sum, cost) => sum + cost.selfInstructions, 0) / requests) },
    generatedCodeNamed
  }
}

/** @param {FunctionCost} cost */
const costliest = (cost) => Math.max(cost.selfInstructions, cost.chargedInstructions)

/**
 * What tells a SUT's layers apart: its package's own dependencies are its framework, the shared work's folders and drivers the route's
 * work. A SUT without a package.json (a service's own command) has no framework packages.
 * @param {{ dir: string }} sut
 * @returns {import('./code-layers.js').LayerContext}
 */
export function layerContextOf (sut) {
  const rootDir = workspaceOf(realpathSync(sut.dir))
  // A variant's copy of the workspace has its own scenarios/; a SUT from elsewhere (--app) uses dyno's.
  const scenariosDirs = [...new Set([rootDir, realpathSync(REPO_ROOT)].map((root) => join(root, 'scenarios')).filter(existsSync))]
  return {
    rootDir: rootDir + '/',
    frameworkPackages: new Set(ownDependencies(sut.dir).filter((name) => !name.startsWith('@dyno/'))),
    routeWorkPackages: new Set(scenariosDirs.flatMap(ownDependencies)),
    routeWorkDirs: scenariosDirs.flatMap((dir) => [join(dir, 'src', 'work') + '/', join(dir, 'src', 'data') + '/'])
  }
}

/** @param {string} dir @returns {string} the nearest folder holding pnpm-workspace.yaml (a checkout of dyno, a variant's copy), else dir */
function workspaceOf (dir) {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'pnpm-workspace.yaml'))) return at
    if (dirname(at) === at) return dir
  }
}

/** @param {string} dir @returns {string[]} the dependencies its package.json names (none: no package.json) */
function ownDependencies (dir) {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    const dependencies = manifest?.dependencies
    return dependencies && typeof dependencies === 'object' ? Object.keys(dependencies) : []
  } catch {
    return []
  }
}
