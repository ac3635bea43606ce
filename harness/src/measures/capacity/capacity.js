// @ts-check
// The capacity measure: the highest rate a SUT holds within a latency objective. Each cell measures the closed-loop ceiling, then
// open-model steps at fixed offered rates (latency timed from each intended send time), searched for the highest rate whose achieved
// rate is at least 99 % of the offered one, the objective holds and no request failed (capacity-cell.js). Each cell is a fresh launch of
// the SUT; the rounds interleave the SUTs, and the launches give each capacity its interval and rank group (capacity-table.js).
import { engineNamed } from '../../load/engines/index.js'
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { timedMachine } from '../timed-machine.js'
import { CAPACITY_COMPARISON } from './capacity-comparison.js'
import { CAPACITY_OPTIONS } from './capacity-options.js'
import { CAPACITY_REPORT, formatCapacityTable } from './capacity-report.js'
import { capacityCell } from './capacity-cell.js'
import { capacitySettings } from './capacity-settings.js'
import { ABOVE_TOP_FRACTIONS, MAX_BISECTION_STEPS, SWEEP_FRACTIONS } from './rate-search.js'
import { parseObjective } from './objective.js'
import { objectiveRequests, stepDurationSec } from './step-length.js'

/** The launches of each SUT when no --repeats is given: enough for an interval and rank groups. */
export const DEFAULT_LAUNCHES = 3

/** Seconds a step spends besides its load: the engine's start and report, the samplers. 2026-11-27 here: about 0.2 s. */
const STEP_OVERHEAD_SEC = 0.2

/** Seconds a cell spends besides its load: the SUT's start (each cell launches it anew), verification, writing the result. */
const CELL_OVERHEAD_SEC = 1

/**
 * What a cell's sweep says on its progress line: the rate and p99 at each level, and what failed.
 * @param {import('./capacity-cell.js').CapacityFigures} figures @returns {string}
 */
function sweepFigures (figures) {
  const levels = (figures.connectionSweep ?? []).filter((level) => !level.cutShort)
  if (levels.length === 0) return figures.sweepStopped ? `\n  sweep: ${figures.sweepStopped}` : ''
  const text = levels.map((level) => `${formatInteger(level.connections)}: ${formatInteger(level.requestsPerSec)} req/s, ` +
    `p99 ${level.latencyMs ? formatMs(level.latencyMs.p99) : '-'} ms` +
    `${level.errors + level.failed > 0 ? ` (${formatInteger(level.errors + level.failed)} failed)` : ''}`)
  return `\n  sweep ${text.join('; ')}${figures.sweepStopped ? `; ${figures.sweepStopped}` : ''}`
}

/** @type {import('../measure.js').Measure} */
export const capacity = Object.freeze({
  name: 'capacity',
  about: {
    help: 'capacity (the highest offered rate held within a latency objective, open model)',
    unit: 'req/s held within the latency objective',
    run: ({ load }) => `capacity within ${load.capacity?.objective ?? '-'}: ` +
      `closed-loop ceiling ${load.warmupSec} + ${load.durationSec} s, ` +
      `then open-model steps of ${(load.capacity?.stepSec ?? 0) / 2} + ${load.capacity?.stepSec ?? '-'} s (longer where the ` +
      'percentile needs more requests) from ' +
      `${formatInteger(load.capacity?.minRatePerSec ?? null)} req/s` +
      `${load.capacity?.sweepConnections
        ? `, then closed loops at ${load.capacity.sweepConnections.map(formatInteger).join(', ')} connections`
        : ''}` +
      `, ${load.engine}`,
    notes: () => []
  },
  options: CAPACITY_OPTIONS,
  plan: {
    defaultRepeats: () => DEFAULT_LAUNCHES,
    settings: capacitySettings,
    cellSec: (scenario, load) => {
      const capacityOf = /** @type {{ stepSec?: number, sweepConnections?: number[] }} */ (load.capacity ?? {})
      const stepSec = Number(capacityOf.stepSec ?? load.stepSec ?? 1)
      const steps = 1 + SWEEP_FRACTIONS.length + ABOVE_TOP_FRACTIONS.length + MAX_BISECTION_STEPS
      const levels = (capacityOf.sweepConnections ?? /** @type {number[] | undefined} */ (load.sweepConnections) ?? []).length
      const loadSec = (steps + levels) * (1.5 * stepSec + STEP_OVERHEAD_SEC) + lowestStepLongerSec(load, stepSec)
      return CELL_OVERHEAD_SEC + Number(load.warmupSec) + Number(load.durationSec) + loadSec
    },
    // Its launches are its rounds (--repeats, else DEFAULT_LAUNCHES): the interval is over them.
    sizeRounds: async () => null
  },
  // The engine is the one `--engine` names, else the native engine: it keeps a fixed schedule from one thread per cpu and reports how far
  // it lagged it. Each step judges whether the generator kept its schedule, so no calibration is run to choose one.
  ownEngine: (named) => named ?? engineNamed('native'),
  // Load runs one cell at a time: two would share the cpus and measure each other. Each cell is a launch of its own: the launches are
  // what the interval is over.
  schedule: { cellsAtOnce: () => 1, sutPerCell: true, besideOtherWork: false },
  // Nothing to warm: each step of a search is a launch of its own, warmed by its own load.
  warmLaunch: async () => null,
  measureCell: capacityCell,
  judge: {
    consistency: () => null,
    interference: (record) => record.capacity?.interference ?? null,
    // What a launch held is its figure; 0 where it held no step.
    attempt: (record) => ({ requestsPerSec: record.capacity?.capacityPerSec ?? 0 })
  },
  merging: {
    machine: (runs) => timedMachine(runs[0]),
    acrossMachines: /** @type {const} */ ('when-allowed'),
    differing: 'the parts were measured on machines that differ, so their capacities are not one machine\'s'
  },
  comparison: {
    ...CAPACITY_COMPARISON,
    gate: { preference: 5, when: 'asked for (`--measure capacity`)', unavailableHere: () => 'capacity is measured when asked for' },
    defaults: { rounds: () => DEFAULT_LAUNCHES, scenarios: () => ['json'] },
    comparedBy: () => 'capacity within the objective'
  },
  report: { ...CAPACITY_REPORT, resultLine: capacityLine, terminalTable: formatCapacityTable }
})

/**
 * How much longer than --step the lowest step is, to hold the requests its objective's percentile needs (step-length.js).
 * @param {import('../../platform/options/option-values.js').PlanValues} load @param {number} stepSec
 */
function lowestStepLongerSec (load, stepSec) {
  const capacityOf = /** @type {{ objective?: string, minRatePerSec?: number }} */ (load.capacity ?? {})
  const parsed = parseObjective(String(capacityOf.objective ?? load.objective ?? ''))
  const ratePerSec = Number(capacityOf.minRatePerSec ?? load.minRatePerSec)
  if ('problem' in parsed || !(ratePerSec > 0)) return 0
  return stepDurationSec({ stepSec, ratePerSec, requests: objectiveRequests(parsed.objective) }) - stepSec
}

/** @param {import('../../records/result-record.js').ResultRecord} record @returns {string} a cell's figures for its result's line */
function capacityLine (record) {
  const figures = record.capacity
  if (!figures) return ''
  const capacityText = figures.capacityPerSec === null ? 'capacity not found' : `capacity ${formatInteger(figures.capacityPerSec)} req/s`
  const again = figures.steps.filter((step) => (step.attempts?.length ?? 0) > 0).length
  const stepsText = `${figures.steps.length} step${figures.steps.length === 1 ? '' : 's'}`
  return `  ${capacityText} within ${figures.objective} (closed loop ${formatInteger(figures.ceiling?.requestsPerSec ?? null)} req/s, ` +
    `${stepsText}${again > 0 ? `, ${again} measured again` : ''}${figures.limit ? `; ${figures.limit}` : ''})` +
    sweepFigures(figures)
}
