// @ts-check
// Reads what V8 logs with `--log-code --log-deopt` (one file per process, `isolate-<address>-<pid>-v8.log`): every function compiled
// to a tier above the interpreter, and every deoptimisation with its kind and reason. V8 flushes each line as it writes it, so a file
// read while the SUT still runs holds every event up to that moment. Times in the log are µs since V8 started logging; the preload's
// anchor line (node-runtime-events-preload.js) ties them to the epoch. The file is the SUT's: it is read as data, in bounded
// pieces, a time only when it is a number, a name cut to a bounded length, and a log larger than MAX_V8_LOG_BYTES not at all.
import { createAppendedLineReader } from '../../platform/util/appended-lines.js'
import { deoptCategory } from './deopt-categories.js'

/** The marker of code-creation lines by tier; `~` (bytecode, compiled on first call) is not an optimisation and is left out. */
const TIERS = new Map([['^', 'sparkplug'], ['+', 'maglev'], ['*', 'turbofan']])
/** The text the preload's anchor function holds (kept equal to the preload's own constant, which cannot import this file). */
export const ANCHOR_MARK = 'dyno-v8-log-anchor'
/**
 * The largest V8 log read: far above what a cell writes (a minute of a sustained run under load logs a few tens of MB, most of it
 * in the first second), far below what would not fit in dyno's memory. A larger one is refused for its process, with the reason.
 */
export const MAX_V8_LOG_BYTES = 256 * 1024 * 1024
/** A function's name, a position or a reason is kept to this many characters. */
const MAX_TEXT = 300

/**
 * @typedef {object} OptimizedEvent
 * @property {number} logUs the V8 log's time
 * @property {string} tier sparkplug, maglev or turbofan
 * @property {string} fn the function and where it is defined
 *
 * @typedef {object} DeoptEvent
 * @property {number} logUs
 * @property {string} kind V8's bailout kind: deopt-eager, deopt-lazy, deopt-soft, dependency-change…
 * @property {string} reason V8's text
 * @property {string} category deopt-categories.js
 * @property {string} fn the optimised function that was thrown away, as its code was created
 * @property {string} position where in the source the check failed (with what it was inlined into)
 */

/**
 * An incremental reader of one process's V8 log: each `read()` parses what was appended since the last one, keeping the code
 * addresses it has seen (a deoptimisation names only the address of its code).
 * @param {string} file
 */
export function createV8LogReader (file) {
  const lines = createAppendedLineReader(file, { maxBytes: MAX_V8_LOG_BYTES, what: 'the V8 log' })
  /** @type {Map<string, string>} code address → function */
  const functions = new Map()
  /** @type {OptimizedEvent[]} */
  const optimized = []
  /** @type {DeoptEvent[]} */
  const deopts = []
  /** @type {number | null} the log time of the anchor's compilation */
  let anchorLogUs = null
  /** @type {number | null} */
  let lastLogUs = null
  let sawAnchorSource = false

  const parseLine = (/** @type {string} */ line) => {
    const fields = line.split(',')
    if (fields[0] === 'code-creation') {
      // code-creation,<type>,<kind>,<µs>,<address>,<size>,<name>,[<sfi address>,<tier marker>]
      const logUs = timeOf(fields[3])
      if (logUs === null) return
      if (sawAnchorSource && anchorLogUs === null) anchorLogUs = lastLogUs ?? logUs
      lastLogUs = logUs
      const fn = unescape(fields[6] ?? '')
      functions.set(fields[4], fn)
      const tier = fields[1] === 'JS' ? TIERS.get(fields[8] ?? '') : undefined
      if (tier) optimized.push({ logUs, tier, fn })
    } else if (fields[0] === 'code-move') {
      const fn = functions.get(fields[1])
      if (fn !== undefined) functions.set(fields[2], fn)
    } else if (fields[0] === 'code-deopt') {
      // code-deopt,<µs>,<size>,<address>,<inlining id>,<script offset>,<bailout kind>,<position>,<reason>
      const logUs = timeOf(fields[1])
      if (logUs === null) return
      const reason = unescape(fields.slice(8).join(','))
      deopts.push({
        logUs,
        kind: /^[a-z-]{1,40}$/.test(fields[6] ?? '') ? fields[6] : 'other',
        reason,
        category: deoptCategory(reason),
        fn: functions.get(fields[3]) ?? 'unknown',
        position: unescape(fields[7] ?? '').replace(/[<>]/g, '')
      })
    } else if (fields[0] === 'script-source' && anchorLogUs === null && line.includes(ANCHOR_MARK)) {
      // The anchor's compilation is the code-creation just before its source (the script's own code), else just after.
      if (lastLogUs !== null) anchorLogUs = lastLogUs
      else sawAnchorSource = true
    }
  }

  return {
    /** parses what was appended since the last call */
    read () {
      for (const line of lines.read()) parseLine(line)
    },
    /** why the log is not read (too large, not a regular file); null while it is */
    get refused () { return lines.refused },
    get optimized () { return optimized },
    get deopts () { return deopts },
    /** the log time of the anchor's compilation; null until it was read */
    get anchorLogUs () { return anchorLogUs }
  }
}

/** A log time: µs, a finite number; null for anything else. @param {string | undefined} text */
function timeOf (text) {
  const us = Number(text)
  return text !== undefined && text !== '' && Number.isFinite(us) ? us : null
}

/** V8 escapes commas and line breaks in names as \x2C and \n; control characters are dropped, the text cut. @param {string} text */
function unescape (text) {
  return (
    text
      .slice(0, 4 * MAX_TEXT)
      .replace(/\\x([0-9A-Fa-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\n/g, ' ')
      // eslint-disable-next-line no-control-regex -- what the log's text may hold and a report must not
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .slice(0, MAX_TEXT)
  )
}
