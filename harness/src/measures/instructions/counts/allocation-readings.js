// @ts-check
// The harness's side of the allocation preload (allocation-preload.js): the environment that loads it into a counted
// Node SUT, and the reading of every process's bytes allocated so far: a SIGUSR2 to each, then its file's next reading.
import { mkdirSync, readdirSync, readFileSync, watch } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../../platform/errors.js'

/** The file URL of the preload, as NODE_OPTIONS=--import wants it (percent-encoded: safe with spaces). */
export const ALLOCATION_PRELOAD_URL = new URL('./allocation-preload.js', import.meta.url).href

/** How long the processes may take to answer (under valgrind, a reading is a few milliseconds). */
const ANSWER_TIMEOUT_MS = 30_000

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
 * Asks every process that wrote a reading under `dir` for a new one (SIGUSR2) and waits for them all.
 * @param {string} dir
 * @returns {Promise<AllocationReading>}
 * @throws {DynoError} DYNO_ERR_LOAD_GENERATOR when no process wrote a reading, or one does not answer in time
 */
export async function readAllocation (dir) {
  const earlier = readingsIn(dir)
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
      const now = readingsIn(dir)
      const fresh = earlier.map((before) => now.find((reading) => reading.pid === before.pid && reading.sequence > before.sequence))
      if (fresh.every(Boolean)) finish(null, /** @type {ProcessReading[]} */ (fresh))
    }
    const timer = setTimeout(() => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `the SUT's processes ${earlier.map((reading) => reading.pid).join(', ')} wrote no allocation reading within ${ANSWER_TIMEOUT_MS / 1000} s`)),
    ANSWER_TIMEOUT_MS)
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
 * The last reading of each process; a file being replaced or unreadable is left for the next look.
 * @param {string} dir @returns {ProcessReading[]}
 */
function readingsIn (dir) {
  let names
  try {
    names = readdirSync(dir).filter((name) => /^\d+\.json$/.test(name))
  } catch {
    return []
  }
  /** @type {ProcessReading[]} */
  const readings = []
  for (const name of names) {
    try {
      const reading = JSON.parse(readFileSync(join(dir, name), 'utf8'))
      if (Number.isInteger(reading.pid) && Number.isInteger(reading.sequence) && Number.isFinite(reading.allocatedBytes)) readings.push(reading)
    } catch {}
  }
  return readings
}
