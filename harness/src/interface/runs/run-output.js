// @ts-check
// What `dyno run` says of a run: the line it starts with, a line per result where there is no live line, and what it ends with.
import { warningGroups } from '../../measures/warning-groups.js'
import { formatAggregateTable } from '../ui/aggregate-table.js'
import { DEFAULT_WIDTH, formatOverview } from '../ui/overview-table.js'
import { formatSummaryTable } from '../ui/summary-table.js'
import { warningLines } from '../ui/warning-lines.js'

/**
 * @param {import('../../suite/prepare-run.js').RunSetup} setup
 * @param {{ runDir: string, total: number, planCells: number }} start
 * @returns {string}
 */
export function startLine ({ options, measure, load, engineChoice, suts, frameworkCount, scenarios }, { runDir, total, planCells }) {
  const part = options.shard ? ` (part ${options.shard.index}/${options.shard.count} of a plan of ${planCells})` : ''
  const runtimes = options.runtimes.length > 1 ? ` (${frameworkCount} × runtimes ${options.runtimes.join(', ')})` : ''
  const levels = options.connections.length > 1 ? ` × ${options.connections.length} connection levels` : ''
  const repeats = options.repeats > 1 ? ` × ${options.repeats} repeats, seed ${options.seed}` : ''
  const described = measure.about.run({ load, profile: options.profile, engineReason: engineChoice?.reason ?? null })
  return `dyno: ${total} runs${part} (${suts.length} SUT${suts.length === 1 ? '' : 's'}${runtimes} × ${scenarios.length} scenarios` +
    `${levels}${repeats}; ${described}), results in ${runDir}`
}

/**
 * The tables a run prints at its end before its overview: the measure's own, or with `--verbose` the summary and the rounds.
 * @param {import('../../suite/prepare-run.js').RunSetup} setup
 * @param {{ records: import('../../records/result-record.js').ResultRecord[],
 *   aggregates: import('../../records/aggregate-runs.js').Aggregate[] }} outcome
 * @returns {string[]}
 */
export function endTables ({ measure, options }, outcome) {
  if (measure.report.terminalTable) return [measure.report.terminalTable(outcome.records)]
  if (!options.verbose) return []
  return [
    formatSummaryTable(outcome.records, { showConnections: options.connections.length > 1 }),
    ...(options.repeats > 1 ? [formatAggregateTable(outcome.aggregates, outcome.records)] : [])
  ]
}

/**
 * What a run ends with: its overview as wide as the terminal is (80 columns when it does not say), then its warnings, a line per cause.
 * @param {import('../../records/read-run.js').RunData} run @param {import('../../measures/measure.js').Measure} measure
 * @param {import('../cli/io.js').Io} io @param {boolean} verbose
 * @returns {string[]}
 */
export function endOfRun (run, measure, io, verbose) {
  const terminal = /** @type {NodeJS.WriteStream} */ (io.stdout)
  const width = terminal.isTTY && terminal.columns > 0 ? terminal.columns : DEFAULT_WIDTH
  const overview = measure.report.overview(run)
  const warnings = warningLines(warningGroups(run.records), { width, verbose })
  return [
    ...(overview ? ['', formatOverview(overview, { width, colour: terminal.isTTY === true && !process.env.NO_COLOR })] : []),
    ...(warnings.length > 0 ? ['', ...warnings] : []),
    ''
  ]
}
