// @ts-check
// The harness's side of the allocation preload (allocation-preload.js): the environment that loads it into a counted
// Node SUT, and the reading of every process's bytes allocated so far: a SIGUSR2 to each, then its file's next reading. The
// directory is the SUT's to write in: a reading counts only when its file is a regular file of a few bytes named by its pid,
// every figure a number, and the pid one of the SUT's own processes, so that no file there makes dyno signal another process.
import { mkdirSync, readdirSync, watch } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../../platform/errors.js'
import { readProcStat } from '../../../platform/process/proc-reader.js'
import { readBoundedText } from '../../../platform/util/bounded-files.js'

/** The file URL of the preload, as NODE_OPTIONS=--import wants it (percent-encoded: safe with spaces). */
export const ALLOCATION_PRELOAD_URL = new URL('./allocation-preload.js', import.meta.url).href

/** How long the processes may take to answer (under valgrind, a reading is a few milliseconds). */
const ANSWER_TIMEOUT_MS = 30_000
/** A reading is a line of 100 bytes. */
const MAX_READING_BYTES = 4096

/**
 * The variables that load the preload into a Node SUT; NODE_OPTIONS keeps what the SUT was to get.
 * @param {{ dir: string, inheritedNodeOptions: string }} options dir: where each process writes its readings
 * @returns {{ NODE_OPTIONS: string, DYNO_ALLOCATION_DIR: string }}
 */
export function allocationEnv ({ dir, inheritedNodeOptions }) {
  return { NODE_OPTIONS: `${inheritedNodeOptions} --import=${ALLOCATION_PRELOAD_URL}`.trim(), DYNO_ALLOCATION_DIR: dir }
}

/**
 * The directory the processes write their readings to, made before the SUT starts (each writes its first at once).
 * @param {string} outDir the count's own temporary directory
 * @returns {string}
 */
export function makeAllocationDir (outDir) {
  const dir = join(outDir, 'allocation')
  mkdirSync(dir)
  return dir
}

/**
 * @typedef {object} AllocationReading what the SUT's processes had allocated on V8's heap when asked
 * @property {number} allocatedBytes summed over its processes
 * @property {number} collections the collections V8 reported meanwhile, summed
 * @property {number} processes that answered
 */

/** @typedef {{ pid: number, sequence: number, allocatedBytes: number, collections: number }} ProcessReading */

/**
 * Asks every process of the SUT that wrote a reading under `dir` for a new one (SIGUSR2) and waits for them all.
 * @param {string} dir @param {{ group: number }} sut group: the SUT's process group, whose processes alone are asked
 * @returns {Promise<AllocationReading>}
 * @throws {DynoError} DYNO_ERR_LOAD_GENERATOR when no process wrote a reading, or one does not answer in time
 */
export async function readAllocation (dir, { group }) {
  const earlier = readingsIn(dir, group)
  if (earlier.length === 0) throw new DynoError('DYNO_ERR_LOAD_GENERATOR', `no process of the SUT wrote an allocation reading under ${dir}`)
  const answers = await new Promise((resolve, reject) => {
    const watcher = watch(dir)
    const finish = (/** @type {Error | null} */ error, /** @type {ProcessReading[]} */ readings = []) => {
      clearTimeout(timer)
      watcher.close()
      if (error) reject(error)
      else resolve(readings)
    }
    const check = () => {
      const now = readingsIn(dir, group)
      const fresh = earlier.map((before) => now.find((reading) => reading.pid === before.pid && reading.sequence > before.sequence))
      if (fresh.every(Boolean)) finish(null, /** @type {ProcessReading[]} */ (fresh))
    }
    const timer = setTimeout(
      () =>
        finish(
          new DynoError(
            'DYNO_ERR_LOAD_GENERATOR',
            `the SUT's processes ${earlier.map((reading) => reading.pid).join(', ')} wrote no allocation reading within ` +
              `${ANSWER_TIMEOUT_MS / 1000} s`
          )
        ),
      ANSWER_TIMEOUT_MS
    )
    watcher.on('change', check)
    watcher.on('error', (error) => finish(error))
    for (const { pid } of earlier) {
      try {
        process.kill(pid, 'SIGUSR2')
      } catch (error) {
        const said = /** @type {Error} */ (error).message
        return finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `could not ask process ${pid} of the SUT for its allocation: ${said}`))
      }
    }
    check()
  })
  return {
    allocatedBytes: answers.reduce((/** @type {number} */ sum, /** @type {ProcessReading} */ answer) => sum + answer.allocatedBytes, 0),
    collections: answers.reduce((/** @type {number} */ sum, /** @type {ProcessReading} */ answer) => sum + answer.collections, 0),
    processes: answers.length
  }
}

/**
 * The last reading of each of the SUT's processes; a file being replaced or unreadable is left for the next look, and one that is
 * not a reading as the preload writes it, or names a process outside the SUT's group, is never one.
 * @param {string} dir @param {number} group @returns {ProcessReading[]}
 */
function readingsIn (dir, group) {
  let names
  try {
    names = readdirSync(dir).filter((name) => /^\d{1,10}\.json$/.test(name))
  } catch {
    return []
  }
  /** @type {ProcessReading[]} */
  const readings = []
  for (const name of names) {
    const { text } = readBoundedText(join(dir, name), { maxBytes: MAX_READING_BYTES })
    if (text === null) continue
    let reading
    try {
      reading = JSON.parse(text)
    } catch {
      continue
    }
    if (!reading || typeof reading !== 'object' || reading.pid !== Number(name.slice(0, -'.json'.length))) continue
    const { pid, sequence, allocatedBytes, collections } = reading
    if (
      !Number.isSafeInteger(sequence) ||
      sequence < 0 ||
      !Number.isFinite(allocatedBytes) ||
      !Number.isSafeInteger(collections) ||
      collections < 0
    ) { continue }
    if (readProcStat(pid)?.pgid !== group) continue
    readings.push({ pid, sequence, allocatedBytes, collections })
  }
  return readings
}
