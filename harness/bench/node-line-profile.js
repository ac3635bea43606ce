// @ts-check
// Where a count's change between two runtimes comes from: one release of a SUT on each runtime, under callgrind with the settings a
// count uses (count-instructions.js), warmed with uncounted requests, then two windows counted one after the other (the second
// must agree with the first, or the runtime has not settled and the figures say so), each function's own instructions per
// request read from callgrind's per-function data, the functions put in groups by what they are, and the groups and functions
// whose cost moved most listed. V8's generated code has no symbols under callgrind (its addresses are `0x…`): it is one group.
//
//   node harness/bench/node-line-profile.js --sut express@4.22.3,fastify@5.12.8 [--runtimes node@22,node@24] [--scenario json]
//     [--warmup 30000] [--requests 2000] [--top 12] [--write]
//   (--write: put the tables into docs/timeline.md, replacing its block)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { SCENARIOS } from '@dyno/scenarios'
import { controlAll, dumpFiles, findCallgrind, underCallgrind } from '../src/measures/instructions/counts/callgrind.js'
import { parseCallgrindDump } from '../src/measures/instructions/counts/callgrind-profile.js'
import { nativeName } from '../src/measures/instructions/counts/code-layers.js'
import { countSettingsFor } from '../src/measures/instructions/counts/count-instructions.js'
import { requestSender } from '../src/measures/instructions/counts/send-requests.js'
import { DEFAULTS } from '../src/platform/defaults.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { startSut } from '../src/subjects/sut-process/start-sut.js'
import { discoverSuts } from '../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../src/subjects/suts/resolve-subjects.js'
import { selectWithVariants } from '../src/subjects/variants/variant-subjects.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const { values } = parseArgs({
  options: {
    sut: { type: 'string', default: 'express@4.22.3' },
    runtimes: { type: 'string', default: 'node@22,node@24' },
    scenario: { type: 'string', default: 'json' },
    warmup: { type: 'string', default: '30000' },
    requests: { type: 'string', default: '2000' },
    top: { type: 'string', default: '12' },
    write: { type: 'boolean', default: false }
  }
})
const warmupRequests = Number(values.warmup)
const windowRequests = Number(values.requests)
const top = Number(values.top)
const runtimes = values.runtimes.split(',')
if (runtimes.length !== 2) throw new Error(`--runtimes names two runtimes, got ${values.runtimes}`)
const found = SCENARIOS.find((candidate) => candidate.name === values.scenario)
if (!found) throw new Error(`no scenario ${values.scenario}; allowed: ${SCENARIOS.map((candidate) => candidate.name).join(', ')}`)
const scenario = found
const tools = findCallgrind()
if (!tools) throw new Error('valgrind and vgdb are needed on PATH (apt-get install valgrind)')
const callgrind = tools

/** What a function is, from its name in callgrind's data. */
const GROUPS = [
  ['V8 generated code (JIT, no symbols)', /^0x[0-9a-f]+$/],
  ['V8 builtins', /^Builtins_/],
  ['V8 garbage collector', new RegExp('^v8::internal::(Heap|Scavenger|MarkCompact|MinorMarkCompact|MinorMS|ConcurrentMarking|' +
    'Sweeper|IncrementalMarking|MemoryAllocator|PagedSpace|NewSpace|SemiSpace|Evacuat|GCTracer|LocalHeap|Marking|BodyDescriptor|' +
    'WriteBarrier|RememberedSet|SlotSet|MemoryChunk|ObjectVisitor|HeapObjectVisitor)')],
  ['V8 compilers and deoptimizer',
    /^v8::internal::(compiler|maglev|baseline|interpreter|Parser|ParserBase|Scanner|Compiler|Deoptimizer|wasm)/],
  ['V8 runtime (C++)', /^(v8::|Runtime_|v8_Default)/],
  ['Node (C++)', /^node::/],
  ['libuv', /^uv_|^uv__/],
  ['C library and kernel entry', /^(__|_?_?libc|mem|str|malloc|free|calloc|realloc|epoll|read|write|syscall|pthread|_dl_)/]
]
const groupOf = (/** @type {string} */ name) =>
  GROUPS.find(([, pattern]) => /** @type {RegExp} */ (pattern).test(nativeName(name)))?.[0] ?? 'other'

/**
 * One runtime's profile: two windows after the warm-up, each function's own instructions per request in each.
 * @param {import('../src/subjects/suts/resolve-subjects.js').Subject} subject
 * @returns {Promise<Array<Map<string, number>>>}
 */
async function profile (subject) {
  const settings = countSettingsFor(subject)
  const outDir = mkdtempSync(join(tmpdir(), 'dyno-profile-'))
  const own = /** @type {NonNullable<typeof subject.launch>} */ (subject.launch)
  const launch = underCallgrind(callgrind.valgrind, { command: own.command, args: [...settings.nodeFlags, ...own.args] }, outDir)
  const env = { NODE_ENV: 'production', ...settings.env }
  const running = await startSut({ ...subject, launch: { ...launch, eventLoopProbe: false } }, {
    readyTimeoutSec: 120, stopGraceSec: 60, env
  })
  const sender = requestSender({ port: running.port, scenario, concurrency: 1, timeoutMs: 60_000, trust: null })
  const control = { vgdb: callgrind.vgdb, outDir, env: { ...process.env, HOST: '127.0.0.1', ...env } }
  try {
    const checked = async (/** @type {number} */ count) => {
      const sent = await sender.send(count)
      if (sent.responses !== count || sent.mismatches || sent.unexpectedStatus || sent.errors) {
        throw new Error(`${subject.label} on ${subject.runtime.name}: not every answer was right (${JSON.stringify(sent)})`)
      }
    }
    await checked(warmupRequests)
    await controlAll(control, 'instrumentation on')
    await controlAll(control, 'zero')
    const windows = []
    for (let window = 0; window < 2; window++) {
      await checked(windowRequests)
      const before = dumpFiles(outDir)
      await controlAll(control, 'dump')
      /** @type {Map<string, number>} */
      const perRequest = new Map()
      for (const file of dumpFiles(outDir)) {
        if (before.has(file)) continue
        const dump = parseCallgrindDump(readFileSync(join(outDir, file), 'utf8'))
        for (const [name, instructions] of dump.selfInstructions) {
          perRequest.set(name, (perRequest.get(name) ?? 0) + instructions / windowRequests)
        }
      }
      windows.push(perRequest)
    }
    return windows
  } finally {
    sender.close()
    await running.stop(60_000)
    rmSync(outDir, { recursive: true, force: true })
  }
}

const total = (/** @type {Map<string, number>} */ window) => [...window.values()].reduce((sum, value) => sum + value, 0)
/** @param {Map<string, number>} window @returns {Map<string, number>} */
const byGroup = (window) => {
  const groups = new Map()
  for (const [name, value] of window) groups.set(groupOf(name), (groups.get(groupOf(name)) ?? 0) + value)
  return groups
}
/** @param {Map<string, number>} window @returns {Map<string, number>} the generated code's addresses as one entry */
const named = (window) => {
  const merged = new Map()
  for (const [name, value] of window) {
    const key = groupOf(name) === GROUPS[0][0] ? '(generated code)' : name
    merged.set(key, (merged.get(key) ?? 0) + value)
  }
  return merged
}
const k = (/** @type {number} */ value) => `${(value / 1000).toFixed(1)}k`
const signedK = (/** @type {number} */ value) => `${value >= 0 ? '+' : '−'}${k(Math.abs(value))}`

/**
 * One SUT's tables: the groups of functions, then the functions that moved most.
 * @param {string} label @param {Array<Array<Map<string, number>>>} profiles per runtime, its two windows
 * @returns {string[]}
 */
function report (label, profiles) {
  const [before, after] = profiles.map((windows) => windows[1])
  const lines = [
    `**${label} × ${values.scenario}**, ${runtimes[0]} → ${runtimes[1]}: instructions per request after ${warmupRequests} uncounted ` +
      `requests, in two windows of ${windowRequests} (the settings of a count; the second window is the one compared):`,
    '',
    ...profiles.map((windows, index) => `- ${runtimes[index]}: ${k(total(windows[0]))} in the first window, ${k(total(windows[1]))} ` +
      `in the second${Math.abs(total(windows[1]) / total(windows[0]) - 1) > 0.02 ? ' (more than 2 % apart: not settled)' : ''}`),
    '',
    `| group of functions | ${runtimes[0]} | ${runtimes[1]} | change |`,
    '|---|---:|---:|---:|'
  ]
  const groupsBefore = byGroup(before)
  const groupsAfter = byGroup(after)
  const moved = (/** @type {string} */ name) => Math.abs((groupsAfter.get(name) ?? 0) - (groupsBefore.get(name) ?? 0))
  for (const name of [...new Set([...groupsBefore.keys(), ...groupsAfter.keys()])].sort((a, b) => moved(b) - moved(a))) {
    const from = groupsBefore.get(name) ?? 0
    const to = groupsAfter.get(name) ?? 0
    lines.push(`| ${name} | ${k(from)} | ${k(to)} | ${signedK(to - from)} |`)
  }
  lines.push(`| all | ${k(total(before))} | ${k(total(after))} | ${signedK(total(after) - total(before))} |`, '',
    `The ${top} functions whose own instructions per request moved most (V8's generated code summed as one):`, '',
    `| function | group | ${runtimes[0]} | ${runtimes[1]} | change |`, '|---|---|---:|---:|---:|')
  const namedBefore = named(before)
  const namedAfter = named(after)
  const functions = [...new Set([...namedBefore.keys(), ...namedAfter.keys()])]
    .map((name) => ({ name, from: namedBefore.get(name) ?? 0, to: namedAfter.get(name) ?? 0 }))
    .sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from))
    .slice(0, top)
  for (const { name, from, to } of functions) {
    const shown = name.length > 70 ? `${name.slice(0, 67)}…` : name
    const group = name === '(generated code)' ? GROUPS[0][0] : groupOf(name)
    lines.push(`| \`${shown.replaceAll('|', '\\|')}\` | ${group} | ${k(from)} | ${k(to)} | ${signedK(to - from)} |`)
  }
  return lines
}

const lines = []
for (const entry of values.sut.split(',')) {
  const [sut] = await selectWithVariants(discoverSuts(), [entry], { cacheDir: DEFAULTS.cacheDir })
  if (sut.installFailure) throw new Error(sut.installFailure)
  /** @type {Array<Array<Map<string, number>>>} */
  const profiles = []
  for (const subject of await resolveSubjects([sut], { runtimes, workers: 1 })) {
    process.stderr.write(`${entry} on ${subject.runtime.name} (${subject.runtime.version}): ${warmupRequests} requests, then two ` +
      `windows of ${windowRequests}, under callgrind…\n`)
    profiles.push(await profile(subject))
  }
  lines.push(...(lines.length > 0 ? [''] : []), ...report(entry, profiles))
}
process.stdout.write(`${lines.join('\n')}\n`)
if (values.write) {
  writeMeasuredBlock({ script: import.meta.url, lines, file: join(REPO_ROOT, 'docs', 'timeline.md') })
  process.stdout.write('written to docs/timeline.md\n')
}
