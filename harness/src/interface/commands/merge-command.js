// @ts-check
import { join, resolve } from 'node:path'
import { checkMergeTarget, mergeParts } from '../../reports/merge/merge-parts.js'
import { readParts } from '../../reports/merge/read-parts.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { writeReports } from '../../reports/report/write-reports.js'
import { createRunId } from '../../records/run-id.js'
import { DEFAULTS } from '../../platform/defaults.js'
import { flag, outputDirectory } from '../../platform/options/option-parsers.js'

/**
 * `dyno merge DIR… --out DIR`: the parts of a split plan (`--shard K/N`) put back together as one run, or one compare-commits
 * results directory; every part is read and judged before anything is written.
 * Exit code: 0; 2 (a DynoError) when the parts are refused, naming the directory and what differs.
 * @param {string[]} dirs the parts, in any order
 * @param {{ out: string, allowMixedMachines: boolean }} options parsed (parse-command-line.js): `out` a new directory under results/
 *   unless given
 * @param {import('../cli/io.js').Io} io
 * @returns {Promise<number>}
 */
export async function mergeCommand (dirs, options, io) {
  const { parts, kind, mixedMachines } = readParts(dirs, { allowMixedMachines: options.allowMixedMachines })
  const out = resolve(REPO_ROOT, options.out)
  checkMergeTarget(out)
  const merged = mergeParts(parts, { out, kind, mixedMachines })
  for (const part of parts) {
    const summary = part.plan.shard
    io.stderr.write(
      `dyno merge: part ${summary.index}/${summary.count}: ${summary.cells} cells (expected ${Math.round(summary.expectedSec)} s) ` +
        `from ${part.dir}\n`
    )
  }
  if (mixedMachines) {
    io.stderr.write(
      `dyno merge: measured on machines that differ (${mixedMachines.map((difference) => difference.property).join(', ')}); ` +
        'the merged run says so in every table and chart\n'
    )
  }
  io.stdout.write(
    `merged: ${merged.dir} (${parts.length} parts, ${merged.cells} cells of plan ${parts[0].plan.id}, ${merged.results} results)\n`
  )
  if (kind === 'run') {
    for (const path of writeReports([merged.dir])) io.stdout.write(`report: ${path}\n`)
  } else {
    io.stdout.write(`compare: dyno compare ${join(merged.dir, 'base')} ${join(merged.dir, 'head')} --paired\n`)
  }
  return 0
}

/** @type {import('../cli/command.js').Command} */
export const MERGE_COMMAND = {
  name: 'merge',
  args: ['<partDir>', '[...partDirs]'],
  summary: 'Put the parts of a split plan (`dyno run --shard K/N` or `dyno compare-commits --shard K/N`, each part a directory) back ' +
    'together: one run directory with every result, run.json, aggregates and reports (or one compare-commits results directory), ' +
    'refusing parts of different plans or commits, a part missing or given twice, and wall-clock parts of machines that differ',
  options: [
    {
      field: 'out',
      flag: '--out <dir>',
      description: 'The merged directory: new, or empty',
      parse: outputDirectory,
      derive: () => join(DEFAULTS.out, `${createRunId()}-merged`),
      defaultText: 'a new run directory under results/'
    },
    {
      field: 'allowMixedMachines',
      flag: '--allow-mixed-machines',
      description: 'Merge wall-clock parts measured on machines that differ (cpu, cores, kernel, Node, engine); every table and chart of ' +
        'the merged run then says they are mixed. Instruction counts merge across machines without it when their runtimes match',
      parse: flag,
      default: false
    }
  ],
  run: ({ positionals, options }, io) => mergeCommand(positionals, options.values, io)
}
