// @ts-check
// The speed probe's process: pinned to the SUT's cpus, it does one fixed chunk of work every CHUNK_EVERY_MS while it is on, and writes
// what each chunk cost it in cpu: `<epoch ms> <cpu µs>` per line. The work is a Node server's kind (a JSON reply written and read
// back), so that a cpu slowed by what the hypervisor runs beside it (a busy sibling thread, a cold cache) slows it as it slows the SUT.
// Its stdin says `on` or `off`; it ends with its stdin, so it never outlives dyno.
import { createInterface } from 'node:readline'

/** The chunk: about 1 ms of this machine's cpu at full speed. */
const CHUNK_ITERATIONS = 100
/** A chunk every 50 ms: 20 readings in a 1-second phase, about 2 % of the SUT's cpu. */
const CHUNK_EVERY_MS = 50
/** Chunks done before `ready`, so that the first reading is of compiled code. */
const WARMUP_CHUNKS = 300

const reply = { message: 'Hello, World!', items: Array.from({ length: 20 }, (_, id) => ({ id, name: `item-${id}` })) }

/** One chunk of work; returns a figure of it so that none of it can be left out. */
function chunk () {
  let kept = 0
  for (let at = 0; at < CHUNK_ITERATIONS; at++) {
    const text = JSON.stringify(reply)
    kept += JSON.parse(text).items.length + text.charCodeAt(at % text.length)
  }
  return kept
}

/** What a chunk costs now, in µs of this process's cpu (steal is never in it). */
function timedChunk () {
  const before = process.cpuUsage()
  chunk()
  const used = process.cpuUsage(before)
  return used.user + used.system
}

for (let done = 0; done < WARMUP_CHUNKS; done++) chunk()
/** @type {NodeJS.Timeout | null} */
let timer = null
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  if (line === 'on' && timer === null) {
    timer = setInterval(() => process.stdout.write(`${Date.now()} ${timedChunk()}\n`), CHUNK_EVERY_MS)
  } else if (line === 'off' && timer !== null) {
    clearInterval(timer)
    timer = null
  }
})
lines.on('close', () => {
  if (timer !== null) clearInterval(timer)
})
process.stdout.write('ready\n')
