// @ts-check
// The parts of one split plan, read and judged before anything is written: each directory a part made by `--shard K/N` (a run
// directory of `dyno run`, or the results directory of `dyno compare-commits`), all of one plan at one commit, every part
// present once, and measured on machines whose figures may be put side by side.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { COMPARE_COMMITS_INDEX } from '../../records/run-layout.js'
import { DynoError } from '../../platform/errors.js'
import { readRun } from '../../records/read-run.js'
import { inputKind } from '../../platform/util/checked-paths.js'
import { machineDifferences } from './machine-identity.js'
import { measureOf } from '../../measures/index.js'

/**
 * @typedef {object} Part
 * @property {string} dir absolute
 * @property {'run' | 'compare-commits'} kind
 * @property {any} index run.json, or compare-commits.json
 * @property {{ id: string, cells: number, expectedSec: number, shard: { index: number, count: number, cells: number, expectedSec: number }
 *   }} plan
 * @property {string} commits the commit a run measured; base..head for compare-commits
 * @property {import('../../measures/measure.js').Measure} measure
 * @property {import('../../records/read-run.js').RunData[]} runs the run itself; every round's run of both sides for compare-commits
 * @typedef {{ property: string, values: { name: string, value: string }[] }[]} MachineDifferences
 */

/** @param {string} message */
const refused = (message) => new DynoError('DYNO_ERR_MERGE_REFUSED', message)

/** @param {Part} part */
const partName = (part) => `part ${part.plan.shard.index}/${part.plan.shard.count} (${part.dir})`

/**
 * @param {string} given
 * @returns {Part}
 */
function readPart (given) {
  const dir = resolve(given)
  const kind = inputKind(dir, dir)
  if (kind !== 'directory') {
    throw refused(`${dir} ${kind ? 'is a file' : 'does not exist'}: name the directory of a part (a run of ` +
    '`dyno run --shard`)')
  }
  if (existsSync(join(dir, COMPARE_COMMITS_INDEX))) return readComparePart(dir)
  if (!existsSync(join(dir, 'run.json'))) {
    throw refused(
      `${dir} is not a dyno run directory (it has no run.json) nor a compare-commits results directory (no ${COMPARE_COMMITS_INDEX})`
    )
  }
  const run = readRun(dir)
  const part = {
    dir,
    kind: /** @type {const} */ ('run'),
    index: run.index,
    plan: run.index.plan,
    commits: String(run.index.env?.git?.commit ?? 'unknown'),
    measure: measureOf({ load: { measure: run.index.options?.measure } }),
    runs: [run]
  }
  checkIsPart(part, 'run.json')
  return part
}

/** @param {string} dir @returns {Part} */
function readComparePart (dir) {
  let index
  try {
    index = JSON.parse(readFileSync(join(dir, COMPARE_COMMITS_INDEX), 'utf8'))
  } catch (error) {
    throw refused(`${join(dir, COMPARE_COMMITS_INDEX)} cannot be read: ${/** @type {Error} */ (error).message}`)
  }
  const runs = ['base', 'head'].flatMap((side) => {
    const sideDir = join(dir, side)
    return existsSync(sideDir)
      ? readdirSync(sideDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(sideDir, entry.name, 'run.json')))
        .map((entry) => readRun(join(sideDir, entry.name)))
      : []
  })
  const part = {
    dir,
    kind: /** @type {const} */ ('compare-commits'),
    index,
    plan: index.plan,
    commits: `${index.base?.commit}..${index.head?.commit}`,
    measure: measureOf({ load: { measure: index.measure } }),
    runs
  }
  checkIsPart(part, COMPARE_COMMITS_INDEX)
  return part
}

/** More cells than any plan holds (24 SUTs × 11 scenarios × 100 repeats × 10 connection levels is 264,000): a part saying more was not
 * written by `dyno run`. */
const MOST_PLAN_CELLS = 1_000_000

/** @param {Part} part @param {string} file */
function checkIsPart (part, file) {
  if (!part.plan?.shard) {
    throw refused(`${part.dir} is not a part of a split plan: its ${file} has no plan.shard (it was made without \`--shard K/N\`)`)
  }
  const { index, count, cells } = part.plan.shard
  const whole = (/** @type {unknown} */ value, /** @type {number} */ least, /** @type {number} */ most) =>
    Number.isInteger(value) && /** @type {number} */ (value) >= least && /** @type {number} */ (value) <= most
  const planCells = part.plan.cells
  if (!whole(planCells, 1, MOST_PLAN_CELLS) || !whole(count, 1, planCells) || !whole(index, 1, count) || !whole(cells, 0, planCells)) {
    throw refused(`${part.dir}: its ${file} says plan.cells ${JSON.stringify(planCells)?.slice(0, 40)}, plan.shard ` +
      `${JSON.stringify(part.plan.shard)?.slice(0, 120)}; allowed: whole numbers with 1 ≤ shard.index ≤ shard.count ≤ plan.cells ≤ ` +
      `${MOST_PLAN_CELLS} and 0 ≤ shard.cells ≤ plan.cells, as \`dyno run --shard K/N\` writes them`)
  }
  if (part.index.status !== 'complete') {
    throw refused(
      `${partName(part)} is \`${part.index.status}\`, not complete: run that part again (its ${part.plan.shard.cells} cells), then merge`
    )
  }
}

/**
 * Reads every part and judges them together.
 * @param {string[]} dirs as given
 * @param {{ allowMixedMachines: boolean }} options
 * @returns {{ parts: Part[], kind: 'run' | 'compare-commits', mixedMachines: MachineDifferences | null }} the parts in the order of K
 * @throws {DynoError} DYNO_ERR_MERGE_REFUSED naming the directory and what differs
 */
export function readParts (dirs, { allowMixedMachines }) {
  const seen = new Map()
  for (const given of dirs) {
    const dir = resolve(given)
    if (seen.has(dir)) throw refused(`${dir} is given twice: name each part once`)
    seen.set(dir, given)
  }
  const parts = dirs.map(readPart)
  const [first] = parts
  const differing = (/** @type {(part: Part) => string} */ of) => parts.some((part) => of(part) !== of(first))
  const listed = (/** @type {(part: Part) => string} */ of) => parts.map((part) => `${part.dir}: ${of(part)}`).join('; ')
  if (differing((part) => part.kind)) {
    throw refused(`the parts are of different commands (dyno run and compare-commits): ${listed((part) => part.kind)}`)
  }
  if (differing((part) => part.plan.id)) {
    throw refused(`the parts are of different plans (different SUTs, scenarios, load or options): plan ${listed((part) => part.plan.id)}`)
  }
  if (differing((part) => part.commits)) throw refused(`the parts were made at different commits: ${listed((part) => part.commits)}`)
  if (differing((part) => String(part.plan.shard.count))) {
    throw refused(`the parts split the plan differently: ${listed((part) => `part ${part.plan.shard.index}/${part.plan.shard.count}`)}`)
  }
  const count = first.plan.shard.count
  /** @type {Map<number, Part>} */
  const byIndex = new Map()
  for (const part of parts) {
    const other = byIndex.get(part.plan.shard.index)
    if (other) throw refused(`part ${part.plan.shard.index}/${count} is given twice: ${other.dir} and ${part.dir}; name each part once`)
    byIndex.set(part.plan.shard.index, part)
  }
  const missing = Array.from({ length: count }, (_, position) => position + 1).filter((index) => !byIndex.has(index))
  if (missing.length > 0) {
    const named =
      missing
        .slice(0, 10)
        .map((index) => `${index}/${count}`)
        .join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '')
    throw refused(`part${missing.length > 1 ? 's' : ''} ${named} of plan ${first.plan.id} ` +
      `${missing.length > 1 ? 'are' : 'is'} missing; given: ${[...byIndex.values()].map(partName).join(', ')}`)
  }
  const ordered = [...byIndex.keys()].sort((a, b) => a - b).map((index) => /** @type {Part} */ (byIndex.get(index)))
  const cells = ordered.reduce((sum, part) => sum + part.plan.shard.cells, 0)
  if (cells !== first.plan.cells) {
    throw refused(
      `the parts hold ${cells} cells, and plan ${first.plan.id} has ${first.plan.cells}: ${listed((part) => String(part.plan.shard.cells))}`
    )
  }
  return { parts: ordered, kind: first.kind, mixedMachines: judgeMachines(ordered, { allowMixedMachines }) }
}

/**
 * The parts' machines as their measure describes them (measure.merging): counts merge across machines whose runtimes match; wall-clock
 * figures only across machines alike, or when the user accepts the mix, which the merged run then carries.
 * @param {Part[]} parts @param {{ allowMixedMachines: boolean }} options
 * @returns {MachineDifferences | null}
 */
function judgeMachines (parts, { allowMixedMachines }) {
  const { merging } = parts[0].measure
  const machines = parts
    .filter((part) => part.runs.length > 0)
    .map((part) => ({ name: partName(part), machine: merging.machine(part.runs) }))
  const differences = machineDifferences(machines)
  if (differences.length === 0) return null
  const described = differences
    .map(({ property, values }) => `${property}: ${values.map(({ name, value }) => `${value} in ${name}`).join(', ')}`)
    .join('; ')
  if (merging.acrossMachines === 'never') throw refused(`${merging.differing}: ${described}`)
  if (!allowMixedMachines) {
    throw refused(`${merging.differing}: ${described}. ` +
      'Give `--allow-mixed-machines` to merge them anyway; every table and chart of the merged run then says so')
  }
  return differences
}
