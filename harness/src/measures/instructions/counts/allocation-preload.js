// @ts-check
// Loaded into a Node SUT that is counted (NODE_OPTIONS=--import=<this file's URL>), never imported by SUT code. It
// tells how many bytes this process has allocated on V8's heap since it started: at start and on every SIGUSR2 it
// writes its reading to DYNO_ALLOCATION_DIR/<pid>.json (written aside and renamed, so a reader never sees half a file).
//
// V8 has no counter of allocated bytes that Node exposes, so it is kept here from V8's own figures: the heap's used
// bytes grow only by allocation and shrink only by collection, so the bytes allocated between two readings are the
// growth of the used bytes plus what every collection in between freed (its used bytes before minus after, as
// v8.GCProfiler reports each collection). These are the bytes as V8 takes them from its heap: an object too big for
// the rest of a 256 KiB page leaves that rest to a filler, counted as taken (small objects leave little; three 64 KiB
// arrays a page leave 30 % more). Measured without valgrind, 1,000 arrays of 126 slots read 1,060 bytes each (1,056
// for the array and its backing store). A signal and a synchronous file write, not a socket: the SUT's own code
// paths (streams, sockets) must not see other receivers between two counted windows, or V8 would compile them again.
// It never writes to stdout (the harness reads the ready line there) and never throws into the SUT.
import { renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { GCProfiler, getHeapStatistics } from 'node:v8'

const dir = process.env.DYNO_ALLOCATION_DIR

if (dir) {
  const profiler = new GCProfiler()
  profiler.start()
  const usedBytes = () => getHeapStatistics().used_heap_size
  const startUsedBytes = usedBytes()
  const file = join(dir, `${process.pid}.json`)
  let freedBytes = 0
  let collections = 0
  let sequence = 0

  const write = () => {
    const usedBefore = usedBytes()
    const { statistics } = profiler.stop()
    profiler.start()
    const usedAfter = usedBytes()
    for (const collection of statistics) {
      freedBytes += collection.beforeGC.heapStatistics.usedHeapSize - collection.afterGC.heapStatistics.usedHeapSize
      collections += 1
    }
    // A collection while the profiler was stopped (building its report allocates) is seen as used bytes that fell.
    freedBytes += Math.max(0, usedBefore - usedAfter)
    const reading = { pid: process.pid, sequence, allocatedBytes: usedAfter - startUsedBytes + freedBytes, collections }
    sequence += 1
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(reading))
      renameSync(`${file}.tmp`, file)
    } catch {
      // The directory went away (the count ended): stay silent.
    }
  }

  write()
  process.on('SIGUSR2', write)
}
