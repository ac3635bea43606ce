// @ts-check
// A counted window's instructions split into V8's collector's and the program's, from callgrind's own per-function
// data (callgrind-profile.js). The collector is every function of V8's heap and of its embedder heap (cppgc) that
// collects, marks, sweeps, or runs as the write barrier of a marking (COLLECTOR_FUNCTIONS); its cost is what the
// program's calls into those functions cost, inclusive. Some functions are called both by the program and from
// inside the collector (the slow path of an allocation refills its buffer during a program's allocation and during
// a scavenge's promotions alike): a call into the collector from such a function counts in the share in which that
// function itself runs outside the collector (call-shares.js). Without that, a scavenge's own promotion would count twice.

import { sharesUnderRoots } from './call-shares.js'

/**
 * The collector's functions in Node's V8 (11.x): the entry points of a collection (Heap::CollectGarbage and the
 * jobs and tasks that run one), the collectors themselves, incremental marking (its steps on allocation and its
 * tasks), sweeping (lazy, on allocation, or to completion), the marking write barrier's slow path, the weak
 * callbacks a collection runs, and cppgc's marker and sweeper.
 */
export const COLLECTOR_FUNCTIONS = new RegExp(
  '^(?:v8::internal::(?:' +
    [
      'Heap::(?:CollectGarbage|CollectAllGarbage|CollectAllAvailableGarbage|HandleGCRequest|StartIncrementalMarking\\w*|' +
        'FinalizeIncrementalMarking\\w*|EnsureSweepingCompleted\\w*|Scavenge|MarkCompact|MinorMarkCompact|PerformGarbageCollection)\\b',
      'IncrementalMarking::',
      'IncrementalMarkingJob::',
      'MinorGCJob::',
      'ScavengeJob::',
      'Sweeper::',
      'MarkCompactCollector::',
      'MinorMarkCompactCollector::',
      'ScavengerCollector::',
      'Scavenger::',
      'ArrayBufferSweeper::',
      'MarkingBarrier::',
      'WriteBarrier::Marking',
      'GlobalHandles::(?:PostGarbageCollectionProcessing|InvokeSecondPassPhantomCallbacks|InvokeFirstPassWeakCallbacks)',
      'MemoryReducer::'
    ].join('|') +
    ')|cppgc::internal::(?:Sweeper|MarkerBase|Marker)\\b)'
)

/**
 * A collection of each kind is one call of its collector's entry point; an incremental marking begins with its Start.
 * @type {Record<'scavenge' | 'markCompact' | 'minorMarkCompact' | 'incrementalMarkingStarted', RegExp>}
 */
const COLLECTION_KINDS = {
  scavenge: /^v8::internal::ScavengerCollector::CollectGarbage\(/,
  markCompact: /^v8::internal::MarkCompactCollector::CollectGarbage\(/,
  minorMarkCompact: /^v8::internal::MinorMarkCompactCollector::CollectGarbage\(/,
  incrementalMarkingStarted: /^v8::internal::IncrementalMarking::Start\(/
}

/**
 * dyno's own reading inside a collection: the allocation preload's v8.GCProfiler records the heap before and after each one (from
 * 400,000 instructions a collection to several million as a count goes on). It is neither the collector's work nor the program's:
 * counted apart, as `readingInstructions`.
 */
export const READING_FUNCTIONS = /^node::v8_utils::(?:BeforeGCCallback|AfterGCCallback)\(/

/**
 * @typedef {object} CollectorSplit
 * @property {number} collectorInstructions dyno's reading inside collections left out
 * @property {number} readingInstructions dyno's allocation reading inside collections (READING_FUNCTIONS)
 * @property {number} programInstructions the rest of the window's instructions
 * @property {{ scavenge: number, markCompact: number, minorMarkCompact: number, incrementalMarkingStarted: number }} collections
 */

/**
 * @param {import('./callgrind-profile.js').CallgrindProfile} profile one process's dump of one window
 * @returns {CollectorSplit}
 */
export function splitCollector (profile) {
  const isCollector = (/** @type {string} */ name) => COLLECTOR_FUNCTIONS.test(name)
  const { shareUnder: insideOf, callsInto } = sharesUnderRoots(profile.arcs, isCollector)

  let collectorInstructions = 0
  const collections = { scavenge: 0, markCompact: 0, minorMarkCompact: 0, incrementalMarkingStarted: 0 }
  for (const arc of profile.arcs) {
    if (arc.caller === arc.callee) continue
    if (isCollector(arc.callee) && !isCollector(arc.caller)) collectorInstructions += arc.inclusiveInstructions * (1 - insideOf(arc.caller))
    for (const kind of /** @type {(keyof typeof COLLECTION_KINDS)[]} */ (Object.keys(COLLECTION_KINDS))) {
      if (COLLECTION_KINDS[kind].test(arc.callee)) collections[kind] += arc.calls
    }
  }
  // A collector function with no caller in the dump (a thread's root) counts with all it called.
  for (const [name, self] of profile.selfInstructions) {
    if (!isCollector(name) || callsInto.has(name)) continue
    collectorInstructions += self
    for (const arc of profile.arcs) if (arc.caller === name && arc.callee !== name) collectorInstructions += arc.inclusiveInstructions
  }
  const readingInstructions = Math.min(Math.round(collectorInstructions), profile.arcs
    .filter((arc) => READING_FUNCTIONS.test(arc.callee) && !READING_FUNCTIONS.test(arc.caller))
    .reduce((sum, arc) => sum + arc.inclusiveInstructions, 0))
  collectorInstructions = Math.min(Math.round(collectorInstructions) - readingInstructions, profile.instructions - readingInstructions)
  const programInstructions = profile.instructions - collectorInstructions - readingInstructions
  return { collectorInstructions, readingInstructions, programInstructions, collections }
}
