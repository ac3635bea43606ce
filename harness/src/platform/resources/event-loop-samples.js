// @ts-check
// The harness's side of the event-loop-delay preload: the environment that loads it into a Node SUT,
// and the reading of what it wrote. The file is the SUT's to write: it is read as data, a regular file of a bounded size, each
// line a sample only when every figure of it is a number, and only those figures kept.
import { DEFAULT_EVENT_LOOP_INTERVAL_MS } from './resource-defaults.js'
import { readBoundedText } from '../util/bounded-files.js'
import { roundTo } from '../util/numbers.js'

/** A line per interval per process, 100 bytes: days of samples. A larger file is not the preload's, and gives no sample. */
const MAX_SAMPLES_BYTES = 64 * 1024 * 1024
const FIGURES = /** @type {const} */ (['tMs', 'meanMs', 'p50Ms', 'p99Ms', 'maxMs'])

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
export function eventLoopEnv ({
  file, intervalMs = DEFAULT_EVENT_LOOP_INTERVAL_MS, inheritedNodeOptions = process.env.NODE_OPTIONS ?? ''
}) {
  return {
    NODE_OPTIONS: `${inheritedNodeOptions} --import=${EVENT_LOOP_PRELOAD_URL}`.trim(),
    DYNO_EVENT_LOOP_FILE: file,
    DYNO_EVENT_LOOP_INTERVAL_MS: String(intervalMs)
  }
}

/**
 * The samples the preload wrote, oldest first; only those ending within [fromMs, toMs] (epoch ms)
 * when given. A missing file, or one that is not a regular file of at most MAX_SAMPLES_BYTES, gives none; a line that is not a
 * sample (a torn last line: the SUT killed mid-write) is skipped.
 * @param {string} file
 * @param {{ fromMs?: number, toMs?: number }} [window]
 * @returns {EventLoopSample[]}
 */
export function readEventLoopSamples (file, { fromMs = -Infinity, toMs = Infinity } = {}) {
  const { text } = readBoundedText(file, { maxBytes: MAX_SAMPLES_BYTES })
  if (text === null) return []
  /** @type {EventLoopSample[]} */
  const samples = []
  for (const line of text.split('\n')) {
    const sample = sampleOf(line)
    if (sample && sample.tMs >= fromMs && sample.tMs <= toMs) samples.push(sample)
  }
  return samples.sort((a, b) => a.tMs - b.tMs)
}

/**
 * A line as the preload writes it, with only its own figures, each a finite number not below zero; null for anything else (a torn
 * last line, the SUT killed mid-write, or a line the preload did not write).
 * @param {string} line @returns {EventLoopSample | null}
 */
function sampleOf (line) {
  let parsed
  try {
    parsed = JSON.parse(line)
  } catch {
    return null
  }
  if (!parsed || typeof parsed !== 'object' || !Number.isSafeInteger(parsed.pid)) return null
  if (!FIGURES.every((figure) => Number.isFinite(parsed[figure]) && parsed[figure] >= 0)) return null
  return { pid: parsed.pid, tMs: parsed.tMs, meanMs: parsed.meanMs, p50Ms: parsed.p50Ms, p99Ms: parsed.p99Ms, maxMs: parsed.maxMs }
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
