// @ts-check
// The parts of a split plan written back as one: a run directory as `dyno run` would have written it for the whole plan
// (every result, run.json, the aggregates over repeats that different parts measured), or, for compare-commits, one results
// directory holding every round of both sides. Written into a directory of its own beside the target and renamed into place,
// so that a merge that fails half-way leaves nothing behind.
import { copyFileSync, cpSync, existsSync, lstatSync, readdirSync, renameSync, rmSync, rmdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { SCHEMA_VERSION } from '../../platform/defaults.js'
import { DynoError } from '../../platform/errors.js'
import { createRunId } from '../../records/run-id.js'
import { functionListFileOf } from '../../records/function-list-file.js'
import { writeJsonAtomic } from '../../records/write-json-atomic.js'
import { aggregateRuns } from '../../records/aggregate-runs.js'
import { rankByOf } from '../../records/read-run.js'
import { checkWritableDirectory, inputKind, makeDirectory } from '../../platform/util/checked-paths.js'
import { AGGREGATES_FILE, COMPARE_COMMITS_INDEX } from '../../records/run-layout.js'

/**
 * @param {string} out the merged directory: absent or empty
 * @throws {DynoError} DYNO_ERR_MERGE_REFUSED when it holds anything: a merge never writes over results
 */
export function checkMergeTarget (out) {
  // A link is refused, dangling or not: what it points to may lie anywhere, and would be replaced by the merged run.
  if (isSymbolicLink(out)) {
    throw new DynoError(
      'DYNO_ERR_MERGE_REFUSED',
      `\`--out\` ${out} is a symbolic link: name a new directory for the merged run (not a link)`
    )
  }
  const kind = inputKind(out, `\`--out\` ${out}`)
  if (kind === 'file') throw new DynoError('DYNO_ERR_MERGE_REFUSED', `\`--out\` ${out} is a file: name a new directory for the merged run`)
  if (kind === 'directory' && readdirSync(out).length > 0) {
    throw new DynoError(
      'DYNO_ERR_MERGE_REFUSED',
      `\`--out\` ${out} is a directory that is not empty: name a new directory for the merged run`
    )
  }
  checkWritableDirectory(out, `\`--out\` ${out}`)
}

/**
 * Writes the merged directory of `parts` (read-parts.js) at `out`.
 * @param {import('./read-parts.js').Part[]} parts in the order of K
 * @param {{ out: string, kind: 'run' | 'compare-commits', mixedMachines: import('./read-parts.js').MachineDifferences | null }} merge
 * @returns {{ dir: string, cells: number, results: number }}
 */
export function mergeParts (parts, { out, kind, mixedMachines }) {
  const staging = join(dirname(out), `.${basename(out)}.merging-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  makeDirectory(staging)
  try {
    const written = kind === 'run' ? writeMergedRun(parts, staging, mixedMachines) : writeMergedComparison(parts, staging, mixedMachines)
    if (existsSync(out)) rmdirSync(out)
    renameSync(staging, out)
    return { dir: out, ...written }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    if (error instanceof DynoError) throw error
    throw new DynoError('DYNO_ERR_RESULTS_WRITE', `could not write the merged run into ${out}: ${/** @type {Error} */ (error).message}`, {
      cause: error
    })
  }
}

/** @param {import('./read-parts.js').Part} part */
function partSummary (part) {
  const started = Date.parse(part.index.startedAt)
  const finished = Date.parse(part.index.finishedAt)
  return {
    shard: `${part.plan.shard.index}/${part.plan.shard.count}`,
    dir: part.dir,
    runId: part.index.runId ?? null,
    startedAt: part.index.startedAt,
    finishedAt: part.index.finishedAt,
    wallSec: Number.isFinite(started) && Number.isFinite(finished) ? Math.round((finished - started) / 100) / 10 : null,
    cells: part.plan.shard.cells,
    expectedSec: part.plan.shard.expectedSec
  }
}

/** @param {import('./read-parts.js').Part[]} parts */
function span (parts) {
  const starts = parts.map((part) => part.index.startedAt).sort()
  const ends = parts.map((part) => part.index.finishedAt).sort()
  return { startedAt: starts[0], finishedAt: ends[ends.length - 1] }
}

/**
 * @param {import('./read-parts.js').Part[]} parts @param {string} dir
 * @param {import('./read-parts.js').MachineDifferences | null} mixedMachines
 */
function writeMergedRun (parts, dir, mixedMachines) {
  const [first] = parts
  const runs = parts.map((part) => part.runs[0])
  const byPosition = (/** @type {{ position?: number }} */ a, /** @type {{ position?: number }} */ b) =>
    (a.position ?? 0) - (b.position ?? 0)
  const planned = runs.flatMap((run) => run.index.planned).sort(byPosition)
  const positions = new Map(planned.map((entry) => [entry.file, entry.position]))
  const results = runs.flatMap((run) => run.index.results).sort((a, b) => (positions.get(a.file) ?? 0) - (positions.get(b.file) ?? 0))
  for (const run of runs) for (const entry of run.index.results) copyResultFile(run.dir, dir, entry.file)
  const records = runs
    .flatMap((run) => run.records.map((record, at) => ({ record, position: positions.get(run.index.results[at].file) ?? 0 })))
    .sort(byPosition)
    .map((entry) => entry.record)
  const runId = createRunId()
  const seed = first.index.seed
  // The parts of one plan may differ in `--rank-by` (it is not part of the plan): the merged run ranks as its first part did.
  const rankBy = rankByOf(first.index)
  const aggregates = aggregateRuns(records, { seed, rankBy: rankBy?.figure })
  writeJsonAtomic(join(dir, AGGREGATES_FILE), { schemaVersion: SCHEMA_VERSION, runId, seed, aggregates })
  writeJsonAtomic(join(dir, 'run.json'), {
    schemaVersion: SCHEMA_VERSION,
    runId,
    ...span(parts),
    status: 'complete',
    options: { ...first.index.options, shard: null },
    engineChoice: first.index.engineChoice ?? null,
    ...rankBy ? { rankBy } : {},
    seed,
    env: first.index.env,
    plan: { ...first.plan, shard: null },
    merged: { parts: parts.map(partSummary), mixedMachines },
    planned,
    results,
    aggregatesFile: AGGREGATES_FILE
  })
  return { cells: planned.length, results: results.length }
}

/**
 * @param {import('./read-parts.js').Part[]} parts @param {string} dir
 * @param {import('./read-parts.js').MachineDifferences | null} mixedMachines
 */
function writeMergedComparison (parts, dir, mixedMachines) {
  const [first] = parts
  let results = 0
  for (const side of ['base', 'head']) {
    for (const part of parts) {
      const sideDir = join(part.dir, side)
      if (!existsSync(sideDir)) continue
      for (const entry of readdirSync(sideDir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue
        const target = join(dir, side, `${entry.name}`)
        if (existsSync(target)) {
          throw new DynoError('DYNO_ERR_MERGE_REFUSED', `two parts hold the run ${side}/${entry.name}: ${part.dir} and another`)
        }
        cpSync(join(sideDir, entry.name), target, { recursive: true })
        results++
      }
    }
  }
  writeJsonAtomic(join(dir, COMPARE_COMMITS_INDEX), {
    ...first.index,
    ...span(parts),
    status: 'complete',
    plan: { ...first.plan, shard: null },
    merged: { parts: parts.map(partSummary), mixedMachines }
  })
  return { cells: first.plan.cells, results }
}

/** @param {string} path @returns {boolean} whether the path itself is a symbolic link (lstat: a dangling one too) */
function isSymbolicLink (path) {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/**
 * Copies a result, and its function list where it has one beside it.
 * @param {string} fromDir @param {string} toDir @param {string} file a plain name (read-run.js checked it)
 */
function copyResultFile (fromDir, toDir, file) {
  copyFileSync(join(fromDir, file), join(toDir, file))
  const list = functionListFileOf(file)
  if (existsSync(join(fromDir, list))) copyFileSync(join(fromDir, list), join(toDir, list))
}
