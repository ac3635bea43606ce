// @ts-check
import { SCENARIOS } from '@dyno/scenarios'
import { DynoError } from '../errors.js'
import { runSuite } from '../run/run-suite.js'
import { discoverSuts } from '../suts/discover-suts.js'
import { selectScenarios, selectSuts } from '../suts/select.js'
import { formatInteger, formatMs } from '../ui/format.js'
import { createProgress } from '../ui/progress.js'
import { formatAggregateTable } from '../ui/aggregate-table.js'
import { formatSummaryTable } from '../ui/summary-table.js'
import { resolveRunSettings } from '../run/resolve-run-settings.js'
import { writeReports } from './report-command.js'
import { resolvePinning } from '../pinning/resolve-pinning.js'
import { findWrk } from '../load/wrk-phase.js'
import { findNativeEngine } from '../load/native-engine.js'
import { findCallgrind } from '../instructions/callgrind.js'
import { resolveSubjects } from '../suts/resolve-subjects.js'
import { DEFAULT_RUNTIME } from '../runtimes/runtime-targets.js'

/**
 * `dyno run`: benchmark, print a summary, and say where the results are.
 * Exit code: 0 when every run is ok or skipped, 1 when any failed or is invalid; interrupted: see main.
 * @param {Record<string, any>} options validated by parseOptions('run', …)
 * @param {import('../cli/main.js').Io} io
 * @param {AbortSignal} signal aborted by an interruption: the run under way stops and is written
 * @returns {Promise<number>}
 */
export async function runCommand (options, io, signal) {
  const settings = resolveRunSettings(options)
  const pinning = resolvePinning(options.pin, undefined, { sutCpus: options.sutCpus ?? options.workers })
  checkEngine(options, settings)
  const selected = selectSuts(discoverSuts(), options.frameworks)
  const scenarios = selectScenarios([...SCENARIOS], settings.scenarios)
  const load = {
    pipelining: settings.pipelining,
    durationSec: settings.durationSec,
    warmupSec: settings.warmupSec,
    windowMs: options.windowMs,
    ratePerSec: options.ratePerSec ?? null,
    engine: /** @type {'autocannon' | 'wrk' | 'native'} */ (options.engine),
    wrkThreads: options.wrkThreads,
    ...(options.measure === 'instructions'
      ? {
          measure: /** @type {const} */ ('instructions'),
          countWarmupRequests: options.countWarmupRequests,
          countWindowRequests: options.countWindowRequests,
          countWindows: options.countWindows
        }
      : {})
  }
  const progress = createProgress(io.stderr, load)
  const suts = await resolveSubjects(selected, {
    runtimes: options.runtimes ?? [DEFAULT_RUNTIME],
    workers: options.workers,
    onBuildLine: (name, line) => progress.log(`  build ${name}: ${line}`)
  })
  if (signal.aborted) throw new DynoError('DYNO_ERR_INTERRUPTED', `interrupted by ${String(signal.reason)} before the first run; nothing was measured`)
  const outcome = await runSuite({
    suts,
    scenarios,
    load,
    connections: settings.connections,
    repeats: settings.repeats,
    seed: settings.seed,
    out: options.out,
    verify: options.verify,
    readyTimeoutSec: options.readyTimeoutSec,
    pgPoolSize: options.pgPoolSize,
    pinning,
    options: { ...options, ...settings, pinning },
    signal
  }, {
    onStart: ({ runDir, total }) => progress.log(`dyno: ${total} runs (${suts.length} SUT${suts.length === 1 ? '' : 's'}` +
      `${(options.runtimes?.length ?? 1) > 1 ? ` (${selected.length} × runtimes ${options.runtimes.join(', ')})` : ''} × ${scenarios.length} scenarios` +
      `${settings.connections.length > 1 ? ` × ${settings.connections.length} connection levels` : ''}` +
      `${settings.repeats > 1 ? ` × ${settings.repeats} repeats, seed ${settings.seed}` : ''}; ` +
      `${options.measure === 'instructions'
        ? `instructions counted: ${options.countWarmupRequests} uncounted requests + ${options.countWindows} × ${options.countWindowRequests} each`
        : `profile ${settings.profile}, ${settings.warmupSec} s warmup + ${settings.durationSec} s each`}), results in ${runDir}`),
    onServices: ({ available, unavailable }) => {
      if (available.length > 0) progress.log(`dyno: services up: ${available.join(', ')}`)
      for (const [name, reason] of Object.entries(unavailable)) {
        progress.log(`dyno: ${name} unavailable, its scenarios will be ${process.env.CI === 'true' ? 'failed' : 'skipped'}: ${reason}`)
      }
    },
    onProgress: (event) => progress.update(event),
    onRemeasure: ({ sut, scenario, generatorCpuPct }) =>
      progress.log(`  autocannon was generator-bound on ${sut} × ${scenario} (${generatorCpuPct}% of one core): measuring it again with the native engine`),
    onResult: (record, file) => progress.log(`  ${record.status.padEnd(7)} ${record.sut.label} × ${record.scenario.name}` +
      (record.summary ? `  ${formatInteger(record.summary.requestsPerSec.mean)} req/s, p99 ${formatMs(record.summary.latencyMs?.p99)} ms` : '') +
      (record.instructions?.windows.length ? `  ${formatInteger(record.instructions.instructionsPerRequest)} instructions per request` : '') +
      `  → ${file}`)
  })
  progress.done()
  io.stdout.write(formatSummaryTable(outcome.records, { showConnections: settings.connections.length > 1 }) + '\n')
  if (settings.repeats > 1) io.stdout.write(formatAggregateTable(outcome.aggregates) + '\n')
  io.stdout.write(`results: ${outcome.runDir}\n`)
  for (const path of writeReports([outcome.runDir])) io.stdout.write(`report: ${path}\n`)
  if (outcome.interrupted) {
    const error = new DynoError('DYNO_ERR_INTERRUPTED', `interrupted after ${outcome.records.length} runs; they are kept in ${outcome.runDir}`)
    io.stderr.write(`${error.code}: ${error.message}\n`)
    return error.exitCode
  }
  return outcome.records.some((record) => record.status === 'failed' || record.status === 'invalid') ? 1 : 0
}

/**
 * What wrk cannot do, said before anything starts: it must be installed, measures whole seconds,
 * runs a closed loop only, and its threads must share the connections evenly.
 * @param {Record<string, any>} options
 * @param {ReturnType<typeof resolveRunSettings>} settings
 */
function checkEngine (options, settings) {
  const invalid = (/** @type {string} */ message) => new DynoError('DYNO_ERR_INVALID_OPTION', message)
  if (options.measure === 'instructions') {
    if (!findCallgrind()) {
      throw invalid('`--measure instructions` needs valgrind and callgrind_control on PATH (apt-get install valgrind); allowed here: wall-clock')
    }
    if (options.ratePerSec) throw invalid('`--measure instructions` counts a fixed number of requests: give either `--rate` or `--measure instructions`')
    return
  }
  if (options.engine === 'native') {
    const engine = findNativeEngine()
    if (!engine.ok) throw invalid(`\`--engine native\`: ${engine.reason}; allowed engines here: autocannon${findWrk() ? ', wrk' : ''}`)
    return
  }
  if (options.engine !== 'wrk') return
  if (!findWrk()) throw invalid('`--engine wrk` needs wrk on PATH (apt-get install wrk); allowed engines here: autocannon')
  if (options.ratePerSec) throw invalid('`--rate` runs the open-model schedule, not wrk: give either `--rate` or `--engine wrk`')
  for (const [flag, value] of /** @type {[string, number][]} */ ([['--duration', settings.durationSec], ['--warmup', settings.warmupSec]])) {
    if (!Number.isInteger(value)) throw invalid(`\`${flag}\` must be whole seconds with \`--engine wrk\`, got \`${value}\``)
  }
  const uneven = settings.connections.filter((level) => level % options.wrkThreads !== 0)
  if (uneven.length > 0) throw invalid(`\`--wrk-threads\` must divide every connection level, got \`${options.wrkThreads}\` for ${uneven.join(', ')}`)
}
