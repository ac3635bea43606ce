// @ts-check
// How fast the SUT's cpus ran while a phase was measured. The hypervisor can slow a cpu without taking it (a busy sibling thread on
// the same core, caches another guest left cold): the cpu time the kernel counts then holds the slowdown, and a request's cpu cost
// with it, by up to 2× from one second to the next here. The probe (speed-probe-child.js), pinned to the SUT's cpus, does a fixed chunk
// of work every 50 ms while a phase is sampled and reports what each chunk cost it in cpu; a phase's reading is the mean chunk of its
// window, and a cost divided by it no longer moves with the cpu's speed (judging/speed-adjustment.js).
import { fileURLToPath } from 'node:url'
import { createInterface } from 'node:readline'
import { pinnedSpawnArgs } from '../../process/pinned-spawn.js'
import { spawnGroupLeader, stopProcessGroup } from '../../process/process-group.js'
import { roundTo } from '../../util/numbers.js'

const CHILD = fileURLToPath(new URL('./speed-probe-child.js', import.meta.url))
/** How long the probe may take to start and compile its chunk. */
const READY_TIMEOUT_MS = 15_000
/** Readings kept: the newest, a few minutes of chunks; a window older than them reads none. */
const KEPT_CHUNKS = 10_000

/**
 * @typedef {object} SpeedReading what the probe read over one window
 * @property {number} cpuUsPerChunk the mean cpu µs of its chunks: higher, a slower cpu
 * @property {number} chunks how many chunks ended in the window
 *
 * @typedef {object} SpeedProbe
 * @property {() => void} resume chunks are done from now on (again)
 * @property {() => void} pause no chunk is done until resume
 * @property {(window: { fromMs: number, toMs: number }) => SpeedReading | null} readingOf the chunks that ended within the window
 *   (epoch ms); null: none did
 * @property {() => Promise<void>} close stops the probe's process
 */

/**
 * Starts the probe on the SUT's cpus; it does nothing until resume.
 * @param {{ cpus: number[], env: Record<string, string> }} where cpus: the SUT's; env: added to the probe's (the run's mark)
 * @returns {Promise<SpeedProbe>}
 */
export async function startSpeedProbe ({ cpus, env }) {
  const { command, args } = pinnedSpawnArgs(process.execPath, [CHILD], cpus)
  const child = spawnGroupLeader(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...env } })
  /** @type {{ endMs: number, cpuUs: number }[]} */
  const chunks = []
  const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) })
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the speed probe did not start within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the speed probe exited before it was ready (${signal ?? `code ${code}`})`))
    })
    lines.on('line', (line) => {
      if (line === 'ready') {
        clearTimeout(timer)
        resolve(undefined)
        return
      }
      const [endMs, cpuUs] = line.split(' ').map(Number)
      if (!(Number.isFinite(endMs) && cpuUs > 0)) return
      chunks.push({ endMs, cpuUs })
      if (chunks.length > KEPT_CHUNKS) chunks.splice(0, chunks.length - KEPT_CHUNKS)
    })
  })
  const stdin = /** @type {import('node:stream').Writable} */ (child.stdin)
  // A probe that died mid-run leaves its pipe closed: what is written then is dropped, and its windows read none.
  stdin.on('error', () => {})
  const say = (/** @type {string} */ word) => {
    if (child.exitCode === null && child.signalCode === null && stdin.writable) stdin.write(`${word}\n`)
  }
  const close = async () => {
    stdin.end()
    await stopProcessGroup(child, { graceMs: 1000, label: 'the speed probe' })
  }
  try {
    await ready
  } catch (error) {
    await close()
    throw error
  }
  return {
    resume: () => say('on'),
    pause: () => say('off'),
    readingOf ({ fromMs, toMs }) {
      const inWindow = chunks.filter((entry) => entry.endMs >= fromMs && entry.endMs <= toMs)
      if (inWindow.length === 0) return null
      const cpuUs = inWindow.reduce((sum, entry) => sum + entry.cpuUs, 0)
      return { cpuUsPerChunk: roundTo(cpuUs / inWindow.length, 1), chunks: inWindow.length }
    },
    close
  }
}
