// @ts-check
// `dyno run` as the commands built on it use it (compare-versions, bisect, timeline, capacity): prepare the run, carry it out, print
// what it found and where it is.
import { DynoError } from '../../platform/errors.js'
import { readRun } from '../../records/read-run.js'
import { writeReports } from '../../reports/report/write-reports.js'
import { prepareRun } from '../../suite/prepare-run.js'
import { runSuite } from '../../suite/run-suite.js'
import { createProgress } from '../ui/progress.js'
import { formatTimeSpent } from '../ui/time-spent.js'
import { printPlan } from './print-plan.js'
import { endOfRun, endTables, startLine } from './run-output.js'

/**
 * `dyno run`, or with `--plan` its plan.
 * Exit code: 0 when every run is ok or skipped, 1 when any failed or is invalid; interrupted: see main.
 * @param {import('../../suite/prepare-run.js').RunValues} options every one given or defaulted (parse-command-line.js)
 * @param {import('../cli/io.js').Io} io
 * @param {AbortSignal} signal aborted by an interruption: the run under way stops and is written
 * @param {Set<string>} planFields the fields of its options that decide what the plan measures (parse-command-line.js)
 * @returns {Promise<number>}
 */
export async function runOrPlan (options, io, signal, planFields) {
  if (options.planOnly) return printPlan(options, io, planFields)
  return (await runBenchmarks(options, io, signal, planFields)).exitCode
}

/**
 * @param {import('../../suite/prepare-run.js').RunValues} values @param {import('../cli/io.js').Io} io @param {AbortSignal} signal
 * @param {Set<string>} planFields
 * @returns {Promise<{ exitCode: number, runDir: string }>} the run directory, with the exit code `dyno run` would give
 */
export async function runBenchmarks (values, io, signal, planFields) {
  const startedAt = performance.now()
  const progress = createProgress(io.stderr, {
    warmupSec: values.warmupSec, durationSec: values.durationSec, launchWarmupSec: values.launchWarmupSec
  })
  const setup = await prepareRun(values, { signal, log: (line) => progress.log(line) })
  const { options, measure } = setup
  const outcome = await runSuite(setup, { planFields, signal }, {
    onStart: (start) => progress.log(startLine(setup, start)),
    onServices: ({ available, unavailable }) => {
      if (available.length > 0) progress.log(`dyno: services up: ${available.join(', ')}`)
      for (const [name, reason] of Object.entries(unavailable)) {
        progress.log(`dyno: ${name} unavailable, its scenarios will be ${process.env.CI === 'true' ? 'failed' : 'skipped'}: ${reason}`)
      }
    },
    onProgress: (event) => progress.update(event),
    onNote: (line) => progress.log(`dyno: ${line}`),
    // On a terminal the live line says what runs; a line per result only with --verbose, or where there is no live line (CI, pipes).
    onResult: (record, file) => {
      if (!options.verbose && io.stderr.isTTY) return
      const figures = measure.report.resultLine(record)
      progress.log(`  ${record.status.padEnd(7)} ${record.sut.label} × ${record.scenario.name}${figures}  → ${file}`)
    }
  })
  progress.done()
  for (const table of endTables(setup, outcome)) io.stdout.write(table + '\n')
  const reports = writeReports([outcome.runDir])
  io.stdout.write(`${endOfRun(readRun(outcome.runDir), measure, io, options.verbose).join('\n')}\n`)
  io.stdout.write(`${formatTimeSpent(outcome.records, performance.now() - startedAt)}\n`)
  io.stdout.write(`results: ${outcome.runDir}\n`)
  for (const path of reports) io.stdout.write(`report: ${path}\n`)
  if (outcome.interrupted) {
    const kept = `interrupted after ${outcome.records.length} runs; they are kept in ${outcome.runDir}`
    const error = new DynoError('DYNO_ERR_INTERRUPTED', kept)
    io.stderr.write(`${error.code}: ${error.message}\n`)
    return { exitCode: error.exitCode, runDir: outcome.runDir }
  }
  const failed = outcome.records.some((record) => record.status === 'failed' || record.status === 'invalid')
  return { exitCode: failed ? 1 : 0, runDir: outcome.runDir }
}
