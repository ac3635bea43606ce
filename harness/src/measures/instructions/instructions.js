// @ts-check
// The instructions measure: the instructions a SUT executes per request, counted under valgrind's callgrind on a fresh launch window by
// window, its system calls per request under strace, every response checked. A count does not depend on the machine's speed or on what
// runs beside it, so counts run several at once, on SUTs of their own, and one round is enough.
import { formatInteger } from '../../platform/text/format.js'
import { inheritedTunablesNote } from './counts/cpu-baseline.js'
import { findCallgrind } from './counts/callgrind.js'
import { commonSettings, invalidSetting } from '../load-settings.js'
import { countCell } from './count-cell.js'
import { timedStage } from '../cell-context.js'
import { countMachine } from './count-machine.js'
import { INSTRUCTIONS_COMPARISON } from './instructions-comparison.js'
import { INSTRUCTIONS_OPTIONS } from './instructions-options.js'
import { INSTRUCTIONS_REPORT } from './instructions-report.js'
import { exchangeOf } from '../../records/result-protocol.js'
import { AUTO_CANDIDATES } from '../../load/engines/index.js'

/** @param {import('./counts/count-syscalls.js').SyscallFigures} calls @returns {string} */
const syscallText = (calls) => `${calls.writes} writes, ${calls.reads} reads, ${calls.polling} polling, ${calls.other} other`

/**
 * A count: the SUT's start under valgrind, then every request at callgrind's pace. Measured here on 2026-11-26: a count of 700 requests
 * takes 7 s (node-http) to 11 s (express), most of it the start; the default count (10,000 + 8 × 750 requests) of plaintext, json and
 * params takes 18, 27, 38 and 81 s on node-http, fastify, koa and express.
 */
const COUNT_START_SEC = 9
const COUNT_PLAINTEXT_MS_PER_REQUEST = 2.5

/**
 * What each count of a run is told: its uncounted warm-up, the bound of its settling and its windows. A bound below the
 * uncounted warm-up is that warm-up: no probe windows.
 * @param {{ countWarmupRequests?: number, countWarmupBoundRequests?: number, countWindowRequests?: number, countWindows?: number }}
 *   options as parsed
 */
export function countLoadOf (options) {
  const { countWarmupRequests, countWindowRequests, countWindows } = options
  const countWarmupBoundRequests = Math.max(Number(options.countWarmupBoundRequests ?? countWarmupRequests), Number(countWarmupRequests))
  return { countWarmupRequests, countWarmupBoundRequests, countWindowRequests, countWindows }
}

/** @type {import('../measure.js').Measure} */
export const instructions = Object.freeze({
  name: 'instructions',
  about: {
    help: 'instructions (instructions per request under valgrind\'s callgrind: --count-warmup requests uncounted, then --count-windows ' +
      'windows of --count-requests requests, each counted; for regressions on noisy machines)',
    unit: 'instructions per request',
    run: ({ load }) => `instructions counted: ${load.countWarmupRequests} uncounted requests, windows until the last ` +
      `${load.countWindows} of ${load.countWindowRequests} each settle (at most ` +
      `${load.countWarmupBoundRequests ?? load.countWarmupRequests} requests before them), ${load.countJobs} at once`,
    // A count's SUT runs with the cpu baseline's GLIBC_TUNABLES after the user's (cpu-baseline.js): said once, before the first cell.
    notes: ({ sutHostSharesProcesses }) => {
      const note = sutHostSharesProcesses ? inheritedTunablesNote(process.env.GLIBC_TUNABLES) : null
      return note ? [note] : []
    }
  },
  options: INSTRUCTIONS_OPTIONS,
  plan: {
    // A count is the same count in every round: one round of counts, whatever the profile's wall-clock rounds.
    defaultRepeats: () => 1,
    settings: countSettings,
    cellSec: (scenario, load) => {
      const count = (/** @type {string} */ field) => Number(load[field] ?? 0)
      // Most counts settle within a few probe windows: a third of the way to the bound is what a count is expected to take.
      const probe = Math.max(0, count('countWarmupBoundRequests') - count('countWarmupRequests')) / 3
      const requests = count('countWarmupRequests') + probe + count('countWindows') * count('countWindowRequests')
      return COUNT_START_SEC + requests * COUNT_PLAINTEXT_MS_PER_REQUEST * scenario.countWeight / 1000
    },
    // A count does not spread between launches: the profile's rounds.
    sizeRounds: async () => null
  },
  // It sends its own requests; the engine it records is the named one, or the one `--engine auto` would try first.
  ownEngine: (named) => named ?? AUTO_CANDIDATES[0],
  // Counts of instructions do not depend on what runs beside them: `--count-jobs` of them run at once, each on a SUT of its own.
  schedule: {
    cellsAtOnce: (load) => {
      const jobs = Number(load.countJobs)
      if (!(Number.isInteger(jobs) && jobs >= 1)) {
        throw new Error(`a count's load settings need countJobs (a whole number ≥ 1), got ${load.countJobs}`)
      }
      return jobs
    },
    sutPerCell: true,
    besideOtherWork: true
  },
  // Nothing to warm: each count is a launch of its own, with its own uncounted warm-up.
  warmLaunch: async () => null,
  measureCell: async (context, cell, running, record) => {
    // The count starts the SUT anew under callgrind: the verified one is stopped first, so it holds no cpu of the count.
    await timedStage(record, 'stop', () => running.stop(context.stopGraceSec * 1000))
    return timedStage(record, 'count', () => countCell(context, cell, record))
  },
  // A count is not disturbed by what runs beside it: nothing is sampled, nothing measured again.
  judge: { consistency: () => null, interference: () => null, attempt: () => ({ requestsPerSec: 0 }) },
  // A count does not depend on the machine's speed: counts of other machines merge when what a count depends on matches.
  merging: {
    machine: (runs) => Object.assign({}, ...runs.map(countMachine)),
    acrossMachines: /** @type {const} */ ('never'),
    differing: 'instruction counts merge across machines only when what a count depends on matches, and it differs'
  },
  comparison: {
    ...INSTRUCTIONS_COMPARISON,
    // A comparison is a regression gate: it counts instructions, which a busy or drifting machine does not blur, wherever valgrind can.
    gate: {
      preference: 0,
      when: 'valgrind and vgdb are on PATH',
      unavailableHere: () => findCallgrind()
        ? null
        : 'valgrind is not installed here: comparing by wall clock; apt-get install valgrind to compare instruction counts'
    },
    // One count a side is enough: its counted windows are compared pair by pair. The framework's own path (routing, parsing,
    // serialising): fibonacci is about a million instructions of shared work per request, a count of it takes minutes and says little of
    // the framework.
    defaults: { rounds: () => 1, scenarios: () => ['plaintext', 'json', 'params'] },
    comparedBy: () => 'instruction counts'
  },
  report: { ...INSTRUCTIONS_REPORT, resultLine: countLine, terminalTable: null }
})

/**
 * A count's settings: valgrind must be here, and a count sends a fixed number of requests, at no rate.
 * @param {import('../load-settings.js').SettingsInput} options @param {import('../../load/engines/engine.js').Engine} engine
 * @returns {import('../../records/result-record.js').LoadSettings}
 */
function countSettings (options, engine) {
  if (!findCallgrind()) {
    throw invalidSetting('`--measure instructions` needs valgrind and vgdb on PATH (apt-get install valgrind); allowed here: wall-clock')
  }
  if (options.ratePerSec !== null) {
    throw invalidSetting('`--measure instructions` counts a fixed number of requests: give either `--rate` or `--measure instructions`')
  }
  return { ...commonSettings(options, engine), runtimeEvents: false, ...countLoadOf(options), countJobs: options.countJobs }
}

/** @param {import('../../records/result-record.js').ResultRecord} record @returns {string} a count's figures for its result's line */
function countLine (record) {
  const per = exchangeOf(record) === 'msg' ? 'message' : 'request'
  const counted = record.instructions?.windows.length
    ? `  ${formatInteger(record.instructions.instructionsPerRequest)} instructions per ${per}` +
      (record.instructions.syscalls ? `, system calls per ${per}: ${syscallText(record.instructions.syscalls.perRequest)}` : '')
    : ''
  return counted + (record.instructions?.cachedFrom ? ` (the identical count of run ${record.instructions.cachedFrom.runId}, reused)` : '')
}
