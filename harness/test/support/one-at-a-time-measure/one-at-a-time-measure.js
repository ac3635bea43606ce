// @ts-check
// A measure made for tests, in one folder as every measure is: `one-at-a-time` sends a cell's requests itself, one after another over one
// kept-alive connection, checks every response as verification does, and records how many it sent and their median time. Nothing in dyno
// knows it: it reaches a run the way a new measure in measures/ would, as the object a run is handed.
import http from 'node:http'
import { AUTO_CANDIDATES } from '../../../src/load/engines/index.js'
import { commonSettings } from '../../../src/measures/load-settings.js'
import { INSTRUCTIONS_COMPARISON } from '../../../src/measures/instructions/instructions-comparison.js'
import { INSTRUCTIONS_REPORT } from '../../../src/measures/instructions/instructions-report.js'
import { failed, ok } from '../../../src/records/outcome.js'
import { checkResponse } from '../../../src/subjects/verify/check-response.js'
import { sendProbe } from '../../../src/subjects/verify/http-probe.js'

/** How many requests a cell sends. */
export const REQUESTS_PER_CELL = 200

/** The cells it measured, in order: what a test reads to see that the run went through it. */
export const measuredCells = /** @type {{ sut: string, scenario: string, requests: number }[]} */ ([])

/** @param {number[]} values @returns {number} */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** @type {import('../../../src/measures/measure.js').Measure} */
export const oneAtATime = Object.freeze({
  name: 'one-at-a-time',
  about: {
    help: 'one-at-a-time (a test measure: requests sent one after another, their median time)',
    unit: 'microseconds per request, one at a time',
    run: () => `one request at a time, ${REQUESTS_PER_CELL} a cell`,
    notes: () => [`one request at a time, ${REQUESTS_PER_CELL} a cell`]
  },
  options: [],
  plan: {
    defaultRepeats: () => 1,
    settings: (options, engine) => ({ ...commonSettings(options, engine), runtimeEvents: false, measure: 'one-at-a-time' }),
    cellSec: () => 1,
    sizeRounds: async () => null
  },
  // It sends its own requests: the engine a run records is the one named, else the one `--engine auto` would try first.
  ownEngine: (named) => named ?? AUTO_CANDIDATES[0],
  schedule: { cellsAtOnce: () => 1, sutPerCell: false, besideOtherWork: false },
  // It sends its own requests, one at a time: nothing warms a launch before them.
  warmLaunch: async () => null,
  measureCell: async (context, cell, running, record) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const timesUs = []
    try {
      for (let sent = 0; sent < REQUESTS_PER_CELL && !context.signal.aborted; sent++) {
        const started = process.hrtime.bigint()
        const response = await sendProbe({ host: running.address, port: running.port, agent, timeoutMs: 5000 }, cell.scenario.request)
        timesUs.push(Number(process.hrtime.bigint() - started) / 1000)
        const wrong = checkResponse(`${cell.scenario.request.method} ${cell.scenario.request.path}`, response, cell.scenario.expect)
          .find((check) => !check.ok)
        if (wrong) return failed(`response ${sent + 1}: ${wrong.check} was ${JSON.stringify(wrong.actual)}`)
      }
    } finally {
      agent.destroy()
    }
    measuredCells.push({ sut: cell.sut.name, scenario: cell.scenario.name, requests: timesUs.length })
    Object.assign(record, { oneAtATime: { requests: timesUs.length, medianUs: Math.round(median(timesUs)) } })
    return ok()
  },
  judge: { consistency: () => null, interference: () => null, attempt: () => ({ requestsPerSec: 0 }) },
  merging: { machine: () => ({}), acrossMachines: /** @type {const} */ ('never'), differing: 'a test measure does not merge' },
  // What a comparison and a report of it would say is not what this test is about: it lends the counts' (a measure of its own brings its
  // own).
  comparison: {
    ...INSTRUCTIONS_COMPARISON,
    gate: { preference: 9, when: 'never', unavailableHere: () => 'a test measure' },
    defaults: { rounds: () => 1, scenarios: () => null },
    comparedBy: () => 'one request at a time'
  },
  report: {
    ...INSTRUCTIONS_REPORT,
    resultLine: (record) => {
      const figures = /** @type {{ oneAtATime?: { medianUs: number } }} */ (record).oneAtATime
      return figures ? `  ${figures.medianUs} µs per request, one at a time` : ''
    },
    terminalTable: null
  }
})
