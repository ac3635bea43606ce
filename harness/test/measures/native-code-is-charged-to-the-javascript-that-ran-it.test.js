// @ts-check
// A count's functions (function-costs.js): V8's generated code is named from the SUT's perf map, a native function's own instructions
// are charged to the JavaScript that called it (split by what each call cost), the collector keeps its own, and a function nobody
// called keeps what it ran; so the charged instructions add up to the dump's, less dyno's own reading inside collections. Each function
// gets its package and layer from its script.
import { rmSync, writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { parseCallgrindDump } from '../../src/measures/instructions/counts/callgrind-profile.js'
import { describeFunction, packageOf } from '../../src/measures/instructions/counts/code-layers.js'
import { splitCollector } from '../../src/measures/instructions/counts/collector-split.js'
import { functionCosts } from '../../src/measures/instructions/counts/function-costs.js'
import { functionProfile } from '../../src/measures/instructions/counts/function-profile.js'
import { perfMapPath, readPerfMap } from '../../src/measures/instructions/counts/perf-map.js'

/** A pid no process of this machine has (Linux's pid_max is at most 2^22): its map is this test's. */
const PID = 9_000_000 + process.pid
const ROUTER = '/repo/node_modules/.pnpm/router@2.2.0/node_modules/router/index.js'
const EXPRESS = '/repo/node_modules/.pnpm/express@5.1.0/node_modules/express/lib/response.js'

const CONTEXT = {
  frameworkPackages: new Set(['express']),
  routeWorkPackages: new Set(['ioredis']),
  routeWorkDirs: ['/repo/scenarios/src/work/'],
  rootDir: '/repo/'
}

// Two JavaScript functions (at 0x1000 and 0x2000) call one inline-cache builtin, which calls V8's runtime; the first also allocates
// into a collection; the event loop calls both. Costs are `position cost` lines; a call's line carries its inclusive cost.
const DUMP = `events: Ir
fn=(1) uv_run
0 20
cfn=(2) 0x1010
calls=1 0
0 400
cfn=(3) 0x2004
calls=1 0
0 140
fn=(2)
0 100
cfn=(4) Builtins_LoadIC
calls=3 0
0 150
cfn=(6) v8::internal::Runtime_AllocateInYoungGeneration(int, unsigned long*, v8::internal::Isolate*)
calls=1 0
0 150
fn=(3)
0 90
cfn=(4)
calls=1 0
0 50
fn=(4)
0 140
cfn=(5) v8::internal::LoadIC::Load(v8::internal::Handle<v8::internal::Object>)
calls=4 0
0 60
fn=(5)
0 60
fn=(6)
0 10
cfn=(7) v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace)
calls=1 0
0 140
fn=(7)
0 140
totals: 560
`

describe('the functions of a count', () => {
  afterAll(() => rmSync(perfMapPath(PID), { force: true }))

  it('names generated code from the perf map and charges native code to the JavaScript that ran it', () => {
    writeFileSync(perfMapPath(PID), [
      `1000 40 JS:~next ${ROUTER}:189:17`,
      // The same function again, optimised: one function, whatever its tier.
      `1000 40 JS:*next ${ROUTER}:189:17`,
      `2000 10 JS:*send ${EXPRESS}:126:25`,
      // A name is the SUT's to choose: one that would move a terminal's cursor is read without its control characters.
      '3000 10 JS:*\u001b[2Jwipe /repo/packages/x/app.js:1:1',
      'garbage line that is not a map entry'
    ].join('\n') + '\n')
    const names = readPerfMap(PID)
    expect(names?.nameAt(0x1010)).toBe(`JS:*next ${ROUTER}:189:17`)
    expect(names?.nameAt(0x3004)).toBe('JS:*?[2Jwipe /repo/packages/x/app.js:1:1')
    expect(names?.nameAt(0x4000)).toBeNull()
    const costs = functionCosts(parseCallgrindDump(DUMP), names, CONTEXT)
    const of = (/** @type {string} */ key) => costs.get(key)
    // The builtin's 140 and the runtime's 60 are spread over its callers by what their calls cost (150 and 50): 3/4 and 1/4.
    expect(of('next router/index.js')).toMatchObject({
      fn: { name: 'next', package: 'router', layer: 'dependencies', line: 189, javascript: true },
      selfInstructions: 100,
      chargedInstructions: 100 + 0.75 * 200 + 10
    })
    expect(of('send express/lib/response.js')).toMatchObject({
      fn: { package: 'express', layer: 'framework' }, selfInstructions: 90, chargedInstructions: 90 + 0.25 * 200
    })
    // The collector keeps its own, the event loop what it ran itself.
    expect(of('v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace)'))
      .toMatchObject({ fn: { layer: 'collector' }, chargedInstructions: 140 })
    expect(of('uv_run')).toMatchObject({ fn: { layer: 'runtime' }, selfInstructions: 20, chargedInstructions: 20 })
    expect(of('Builtins_LoadIC')).toMatchObject({ selfInstructions: 140, chargedInstructions: 0 })
    const charged = [...costs.values()].reduce((sum, cost) => sum + cost.chargedInstructions, 0)
    expect(charged).toBeCloseTo(560, 6)

    const profile = functionProfile([costs, costs], 10, true)
    expect(profile.layers).toMatchObject({ dependencies: 26, framework: 14, collector: 14, runtime: 2, node: 0 })
    expect(profile.functions[0]).toMatchObject({ name: 'next', selfPerRequest: 10, chargedPerRequest: 26 })
    expect(profile.omitted).toEqual({ functions: 0, selfPerRequest: 0 })
  })

  // A collection runs dyno's allocation reading (GCProfiler's callback), which writes with std::ostream and copies with memcpy; the
  // JavaScript function copies with memcpy too. Of memcpy's 100, the reading's calls cost 60 and the function's 40.
  it('leaves out dyno\'s own reading inside collections, and what it called in the share it called it', () => {
    const dump = `events: Ir
fn=(1) uv_run
0 10
cfn=(2) 0x1010
calls=1 0
0 690
fn=(2)
0 50
cfn=(3) memcpy@GLIBC_2.2.5
calls=1 0
0 40
cfn=(4) v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace)
calls=1 0
0 600
fn=(4)
0 100
cfn=(5) node::v8_utils::BeforeGCCallback(v8::Isolate*, v8::GCType, v8::GCCallbackFlags, void*)
calls=1 0
0 500
fn=(5)
0 40
cfn=(6) std::basic_ostream<char>& std::__ostream_insert<char>(std::basic_ostream<char>&, char const*, long)
calls=9 0
0 400
cfn=(3)
calls=1 0
0 60
fn=(6)
0 400
fn=(3)
0 100
totals: 700
`
    writeFileSync(perfMapPath(PID), `1000 40 JS:*next ${ROUTER}:189:17\n`)
    const costs = functionCosts(parseCallgrindDump(dump), readPerfMap(PID), CONTEXT)
    expect([...costs.keys()].filter((key) => /ostream|v8_utils/.test(key))).toEqual([])
    expect(costs.get('memcpy@GLIBC_2.2.5')).toMatchObject({ selfInstructions: 40, chargedInstructions: 0 })
    expect(costs.get('next router/index.js')).toMatchObject({ selfInstructions: 50, chargedInstructions: 90 })
    expect(costs.get('v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace)'))
      .toMatchObject({ selfInstructions: 100, chargedInstructions: 100 })
    // The dump's 700 less the reading's 500, as the collector split counts the reading apart.
    expect([...costs.values()].reduce((sum, cost) => sum + cost.chargedInstructions, 0)).toBeCloseTo(200, 6)
    expect(splitCollector(parseCallgrindDump(dump))).toMatchObject({ readingInstructions: 500, collectorInstructions: 100 })
  })

  it('tells the layers apart by where a function\'s script is', () => {
    const layerOf = (/** @type {string} */ name) => describeFunction(name, CONTEXT).layer
    expect(layerOf('JS:*_storeHeader node:_http_outgoing:410:22')).toBe('node')
    expect(layerOf('JS:~fibonacci /repo/scenarios/src/work/fibonacci.js:3:1')).toBe('route-work')
    expect(layerOf('JS:*get /repo/node_modules/.pnpm/ioredis@5.0.0/node_modules/ioredis/built/Redis.js:20:3')).toBe('route-work')
    expect(layerOf('JS:* file:///repo/scenarios/src/express-api.js:38:20')).toBe('app')
    expect(describeFunction('JS:* file:///repo/scenarios/src/express-api.js:38:20', CONTEXT)).toMatchObject({
      name: '(anonymous)', file: 'scenarios/src/express-api.js', line: 38, key: '(anonymous) scenarios/src/express-api.js:38'
    })
    expect(layerOf('v8::internal::compiler::GraphReducer::ReduceTop()')).toBe('compiler')
    expect(layerOf('0x00000000deadbeef')).toBe('runtime')
    expect(describeFunction('void v8::internal::Visitor<int>::Visit(v8::internal::HeapObject)', CONTEXT).name)
      .toBe('v8::internal::Visitor<int>::Visit(v8::internal::HeapObject)')
    expect(packageOf('/a/node_modules/.pnpm/@fastify+ajv@1/node_modules/@fastify/ajv-compiler/index.js')).toBe('@fastify/ajv-compiler')
    expect(packageOf('/a/node_modules/.pnpm/x/y.js')).toBeNull()
  })

  it('has no names where the process wrote no map', () => {
    expect(readPerfMap(PID + 1)).toBeNull()
  })
})
