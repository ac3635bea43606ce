// @ts-check
// The harness's side of the event-loop-delay preload: the environment that loads it into a Node SUT,
// and the reading of what it wrote.
import { readFileSync } from 'node:fs'
import { DEFAULT_EVENT_LOOP_INTERVAL_MS } from './resource-defaults.js'
import { roundTo } from '../util/numbers.js'

/** The file URL of the preload, as NODE_OPTIONS=--import wants it (percent-encoded: safe with spaces). */
export const EVENT_LOOP_PRELOAD_URL = new URL('./event-loop-preload.js', import.meta.url).href

/**
 * @typedef {object} EventLoopSample one interval of one process, as the preload wrote it
 * @property {number} pid
 * @property {number} tMs epoch ms at the end of the interval
 * @property {number} meanMs event-loop delay: how late a 10 ms timer fired, on average
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} maxMs
 *
 * @typedef {object} EventLoopReport the event-loop delay of a window, for a phase summary
 * @property {number} intervalMs
 * @property {number | null} meanMs the mean of the interval means (null: no sample)
 * @property {number | null} worstP99Ms the highest p99 of any interval (percentiles of intervals cannot be merged)
 * @property {number | null} maxMs
 * @property {EventLoopSample[]} samples with tMs counted from the window's start
 */

/**
 * The variables that load the preload into a Node SUT. NODE_OPTIONS keeps what the harness itself was
 * given; the SUT's own child processes inherit it too and write to the same file (each line has its pid).
 * @param {{ file: string, intervalMs?: number, inheritedNodeOptions?: string }} options
 * @returns {{ NODE_OPTIONS: string, DYNO_EVENT_LOOP_FILE: string, DYNO_EVENT_LOOP_INTERVAL_MS: string }}
 */
export function eventLoopEnv ({ file, intervalMs = DEFAULT_EVENT_LOOP_INTERVAL_MS, inheritedNodeOptions = process.env.NODE_OPTIONS ?? '' }) {
  return {
    NODE_OPTIONS: `${inheritedNodeOptions} --import=${EVENT_LOOP_PRELOAD_URL}`.trim(),
    DYNO_EVENT_LOOP_FILE: file,
    DYNO_EVENT_LOOP_INTERVAL_MS: String(intervalMs)
  }
}

/**
 * The samples the preload wrote, oldest first; only those ending within [fromMs, toMs] (epoch ms)
 * when given. A missing file gives none; a torn last line (the SUT killed mid-write) is skipped.
 * @param {string} file
 * @param {{ fromMs?: number, toMs?: number }} [window]
 * @returns {EventLoopSample[]}
 */
export function readEventLoopSamples (file, { fromMs = -Infinity, toMs = Infinity } = {}) {
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return []
    throw error
  }
  /** @type {EventLoopSample[]} */
  const samples = []
  for (const line of text.split('\n')) {
    if (!line) continue
    let sample
    try {
      sample = JSON.parse(line)
    } catch {
      continue
    }
    if (typeof sample?.tMs !== 'number' || sample.tMs < fromMs || sample.tMs > toMs) continue
    samples.push(sample)
  }
  return samples.sort((a, b) => a.tMs - b.tMs)
}

/**
 * Sums up the samples of one window (read with its fromMs) for a phase summary.
 * @param {EventLoopSample[]} samples
 * @param {{ startedAtMs: number, intervalMs: number }} window startedAtMs: epoch ms the sample times are counted from
 * @returns {EventLoopReport}
 */
export function summarizeEventLoop (samples, { startedAtMs, intervalMs }) {
  return {
    intervalMs,
    meanMs: samples.length === 0 ? null : roundTo(samples.reduce((sum, sample) => sum + sample.meanMs, 0) / samples.length, 2),
    worstP99Ms: samples.length === 0 ? null : Math.max(...samples.map((sample) => sample.p99Ms)),
    maxMs: samples.length === 0 ? null : Math.max(...samples.map((sample) => sample.maxMs)),
    samples: samples.map((sample) => ({ ...sample, tMs: sample.tMs - startedAtMs }))
  }
}
