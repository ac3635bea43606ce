// @ts-check
import { join, resolve } from 'node:path'
import { checkMergeTarget, mergeParts } from '../../reports/merge/merge-parts.js'
import { readParts } from '../../reports/merge/read-parts.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { writeReports } from './report-command.js'

/**
 * `dyno merge DIR… --out DIR`: the parts of a split plan (`--shard K/N`) put back together as one run, or one compare-commits
 * results directory; every part is read and judged before anything is written.
 * Exit code: 0; 2 (a DynoError) when the parts are refused, naming the directory and what differs.
 * @param {string[]} dirs the parts, in any order
 * @param {{ out: string, allowMixedMachines: boolean }} options parsed (parse-command-line.js): `out` a new directory under results/
 *   unless given
 * @param {import('../cli/main.js').Io} io
 * @returns {Promise<number>}
 */
export async function mergeCommand (dirs, options, io) {
  const { parts, kind, mixedMachines } = readParts(dirs, { allowMixedMachines: options.allowMixedMachines })
  const out = resolve(REPO_ROOT, options.out)
  checkMergeTarget(out)
  const merged = mergeParts(parts, { out, kind, mixedMachines })
  for (const part of parts) {
    const summary = part.plan.shard
    io.stderr.write(`dyno merge: part ${summary.index}/${summary.count}: ${summary.cells} cells (expected ${Math.round(summary.expectedSec)} s) ` +
      `from ${part.dir}\n`)
  }
  if (mixedMachines) {
    io.stderr.write(`dyno merge: measured on machines that differ (${mixedMachines.map((difference) => difference.property).join(', ')}); ` +
      'the merged run says so in every table and chart\n')
  }
  io.stdout.write(`merged: ${merged.dir} (${parts.length} parts, ${merged.cells} cells of plan ${parts[0].plan.id}, ${merged.results} results)\n`)
  if (kind === 'run') {
    for (const path of writeReports([merged.dir])) io.stdout.write(`report: ${path}\n`)
  } else {
    io.stdout.write(`compare: dyno compare ${join(merged.dir, 'base')} ${join(merged.dir, 'head')} --paired\n`)
  }
  return 0
}
