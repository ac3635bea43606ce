// @ts-check
// What the judgements of a series read of each of its windows: load/timeseries.js cuts a phase into windows of this shape (and more).

/**
 * @typedef {object} SeriesWindow one slice of a phase under load
 * @property {number} startMs since the phase started
 * @property {number} durationMs as measured
 * @property {number} requests completed responses in the window
 * @property {{ p50: number, p75: number, p90: number, p99: number } | null} latencyMs null when no response completed
 */

export {}
