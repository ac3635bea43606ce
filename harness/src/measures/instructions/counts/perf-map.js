// @ts-check
// The names of V8's generated code. Callgrind sees JIT code as bare addresses (`0x…`); a Node SUT counted with `--perf-basic-prof`
// writes every code object it creates to /tmp/perf-PID.map (`START SIZE NAME`, hex), and with that flag V8 never moves code, so
// the map names each address for the process's life. The map is written by the SUT: it is read as data, bounded in size.
import { readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The V8 flags that write the map. The first also opens V8's log (a line per page the heap takes or gives back), by default as
 * `isolate-…-v8.log` in the SUT's folder: one file for all isolates, put where `v8LogFlag` says.
 */
export const PERF_MAP_FLAGS = Object.freeze(['--perf-basic-prof', '--no-logfile-per-isolate'])

/**
 * Where V8's log goes: the count's own temporary folder. Not /dev/null, which V8 takes for its console: the log's lines then went to
 * the SUT's stdout, and one glued to the ready line hid it (a count then waited for a SUT that had started).
 * @param {string} dir @returns {string}
 */
export const v8LogFlag = (dir) => `--logfile=${join(dir, 'v8.log')}`
/** A map past this size is not read: a SUT making code without end is named, not followed. */
const PERF_MAP_MAX_BYTES = 64 * 1024 * 1024
const MAP_LINE = /^([0-9a-f]{1,16}) ([0-9a-f]{1,16}) (.{1,4000})$/
/** A function's name is the SUT's to choose: no control character of it reaches a terminal. */
// eslint-disable-next-line no-control-regex -- the control characters are what is matched
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g

/** @param {number} pid @returns {string} where V8 writes a process's map */
export const perfMapPath = (pid) => `/tmp/perf-${pid}.map`

/**
 * @typedef {object} CodeNames
 * @property {(address: number) => string | null} nameAt the name of the code object holding the address (null: none)
 */

/**
 * A process's map as it stands: a later code object at a reused address wins, as it is the one that ran last.
 * @param {number} pid @returns {CodeNames | null} null: the process wrote no map (not Node, or counted without the flag)
 */
export function readPerfMap (pid) {
  const path = perfMapPath(pid)
  let sizeBytes
  try {
    sizeBytes = statSync(path).size
  } catch {
    return null
  }
  if (sizeBytes > PERF_MAP_MAX_BYTES) return null
  /** @type {{ start: number, end: number, name: string, order: number }[]} */
  const written = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = MAP_LINE.exec(line)
    if (!match) continue
    const start = Number.parseInt(match[1], 16)
    const name = match[3].replace(CONTROL_CHARACTERS, '?')
    written.push({ start, end: start + Number.parseInt(match[2], 16), name, order: written.length })
  }
  const ranges = latestWithoutOverlap(written)
  return {
    nameAt: (address) => {
      let low = 0
      let high = ranges.length - 1
      while (low <= high) {
        const middle = (low + high) >> 1
        const range = ranges[middle]
        if (address < range.start) high = middle - 1
        else if (address >= range.end) low = middle + 1
        else return range.name
      }
      return null
    }
  }
}

/**
 * Code freed by the collector leaves its space to later code: of two ranges that overlap, the one written later is kept.
 * @template {{ start: number, end: number, order: number }} R @param {R[]} written @returns {R[]} sorted by start, disjoint
 */
function latestWithoutOverlap (written) {
  /** @type {R[]} */
  const kept = []
  for (const range of [...written].sort((a, b) => a.start - b.start || a.order - b.order)) {
    while (kept.length > 0 && kept[kept.length - 1].end > range.start && kept[kept.length - 1].order < range.order) kept.pop()
    const last = kept[kept.length - 1]
    if (!last || last.end <= range.start) kept.push(range)
  }
  return kept
}

/** @param {Iterable<number>} pids the processes of a count, whose maps go with it */
export function removePerfMaps (pids) {
  for (const pid of pids) rmSync(perfMapPath(pid), { force: true })
}
