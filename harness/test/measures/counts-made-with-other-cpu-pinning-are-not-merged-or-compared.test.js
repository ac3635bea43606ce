// @ts-check
// Every count is pinned to a cpu baseline (src/counts/cpu-baseline.js): the extensions above it are hidden from the SUT,
// so that any x86-64 runner counts the same code. Counts pinned to different baselines counted different code: `dyno merge`
// and `dyno compare` refuse them (exit 2), naming both baselines and the runs that hold each; a count of a dyno from before
// baselines is pinned to none. A cached count is keyed by its baseline too. The counts here are made by hand from a committed
// run, and checked against the schemas; none is counted.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { afterAll, describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { countKey } from '../../src/measures/instructions/counts/count-cache.js'
import { countSettingsFor, NODE_COUNT_SETTINGS } from '../../src/measures/instructions/counts/count-instructions.js'
import { CPU_BASELINE, maskedCpuFlags, withCpuBaseline } from '../../src/measures/instructions/counts/cpu-baseline.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { copyOfRun, FOUR_REPEATS } from '../support/compare-inputs.js'
import { asCount } from '../support/count-record.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-cpu-baseline-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const PINNED = withCpuBaseline(NODE_COUNT_SETTINGS, 'node', undefined)
const WINDOWS = 8

/** @param {string} path */
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))

/**
 * A run of counts made by hand from the committed run of node-http json: each repeat an ok count of eight windows, pinned to the
 * baseline or, as a dyno from before baselines wrote it, to none.
 * @param {{ pinned: boolean, repeats?: number[], shard?: { index: number, count: number } }} spec repeats: those the run holds (all
 *   four); shard: the part of a plan of four cells it is
 * @returns {string} the run directory
 */
function countRun ({ pinned, repeats = [1, 2, 3, 4], shard }) {
  const dir = copyOfRun(FOUR_REPEATS)
  const index = readJson(join(dir, 'run.json'))
  index.options.measure = 'instructions'
  index.planned = index.planned.filter((/** @type {{ repeat: number }} */ entry) => repeats.includes(entry.repeat))
  for (const entry of index.results.filter((/** @type {{ repeat: number }} */ entry) => !repeats.includes(entry.repeat))) {
    rmSync(join(dir, entry.file))
  }
  index.results = index.results.filter((/** @type {{ repeat: number }} */ entry) => repeats.includes(entry.repeat))
  if (shard) {
    index.plan = {
      id: '0123456789abcdef',
      cells: 4,
      expectedSec: 120,
      shard: { ...shard, cells: repeats.length, expectedSec: 30 * repeats.length }
    }
  }
  for (const entry of index.results) {
    const path = join(dir, entry.file)
    const record = readJson(path)
    const perRequest = Array.from({ length: WINDOWS }, (_, window) => 56_000 + 40 * ((window * 3 + record.repeat.index) % 5))
    asCount(record, perRequest, {
      settings: pinned ? PINNED : NODE_COUNT_SETTINGS,
      ...(pinned ? { cpu: { maskedFlags: ['avx', 'avx2', 'bmi2'] } } : {})
    })
    expect(schemaErrors('result', record), entry.file).toEqual([])
    writeFileSync(path, JSON.stringify(record, null, 2))
  }
  expect(schemaErrors('run-index', index)).toEqual([])
  writeFileSync(join(dir, 'run.json'), JSON.stringify(index, null, 2))
  return dir
}

/** What the messages call a count made before baselines. */
const NONE = 'none (counted by a dyno from before cpu baselines)'

describe('counts pinned to different cpu baselines', () => {
  it('are not merged: the parts of one plan must share a baseline, and the refusal names both and each part', async () => {
    const first = countRun({ pinned: true, repeats: [1, 2], shard: { index: 1, count: 2 } })
    const second = countRun({ pinned: true, repeats: [3, 4], shard: { index: 2, count: 2 } })
    const older = countRun({ pinned: false, repeats: [3, 4], shard: { index: 2, count: 2 } })

    const merged = await runCli(['merge', first, second, '--out', join(work, 'merged')])
    expect(merged.code, merged.stderr).toBe(0)
    expect(readJson(join(work, 'merged', 'run.json')).results).toHaveLength(4)

    const refused = await runCli(['merge', first, older, '--out', join(work, 'refused'), '--allow-mixed-machines'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      'DYNO_ERR_MERGE_REFUSED: instruction counts merge across machines only when what a count depends on matches'
    )
    expect(refused.stderr).toContain(`cpu baseline: ${CPU_BASELINE.name} in part 1/2 (${first}), ${NONE} in part 2/2 (${older})`)
    expect(existsSync(join(work, 'refused'))).toBe(false)
  })

  it('are not compared: the refusal names both baselines with the runs and rows of each', async () => {
    const pinned = countRun({ pinned: true })
    const again = countRun({ pinned: true })
    const older = countRun({ pinned: false })

    const alike = compareRuns([pinned], [again], { thresholdPercent: null, paired: false })
    expect(alike.rows.map((row) => [row.sut, row.scenario, row.status, row.verdict])).toEqual([
      ['node-http', 'json', 'compared', 'unchanged']
    ])

    const refused = await runCli(['compare', pinned, older])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/^DYNO_ERR_COMPARE_CPU_BASELINE: the instruction counts were pinned to different cpu baselines/)
    expect(refused.stderr).toContain(
      `${CPU_BASELINE.name} in the baseline ${pinned} (node-http × json); ${NONE} in the candidate ${older} (node-http × json)`
    )
    expect(refused.stderr).toContain('Count the side made with the other baseline again with this dyno')
  })

  it('are not compared when one side mixes them either', async () => {
    const pinned = countRun({ pinned: true })
    const mixed = countRun({ pinned: true })
    const record = readJson(join(mixed, 'node-http--json--r3.json'))
    delete record.instructions.settings.cpuBaseline
    writeFileSync(join(mixed, 'node-http--json--r3.json'), JSON.stringify(record))
    const refused = await runCli(['compare', pinned, mixed])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`${CPU_BASELINE.name} in the baseline ${pinned} (node-http × json) and the candidate ${mixed} ` +
      `(node-http × json); ${NONE} in the candidate ${mixed} (node-http × json)`)
  })
})

describe('the cpu baseline of a count', () => {
  it('is part of the key of a cached count, with the flags of this cpu it hides', () => {
    const sut = /** @type {any} */ ({
      dir: join(PACKAGES_DIR, 'node-http'),
      runtime: { name: 'node', kind: 'node', version: process.version },
      workers: 1
    })
    const scenario = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((candidate) => candidate.name === 'json'))
    const count = { warmupRequests: 10_000, windowRequests: 750, windows: WINDOWS, concurrency: 1 }
    // Any program that answers --version stands for valgrind here: the key holds its answer, the same on both sides.
    const keyOf = (/** @type {import('../../src/measures/instructions/counts/count-instructions.js').CountSettings} */ settings) =>
      countKey({ sut, scenario, valgrind: process.execPath, count: { ...count, settings } })
    const pinned = keyOf(PINNED)
    const older = keyOf(NODE_COUNT_SETTINGS)
    expect(pinned.key).not.toBe(older.key)
    expect(pinned.inputs).toMatchObject({ cpuBaseline: CPU_BASELINE.name, cpu: maskedCpuFlags()?.join(' ') ?? 'unknown' })
    expect(older.inputs.cpuBaseline).toBe('none')
    expect(keyOf(PINNED).key).toBe(pinned.key)
  })

  it('is put on every runtime, after a GLIBC_TUNABLES the user set, whose other entries are kept', () => {
    const hwcaps = CPU_BASELINE.glibcTunables['glibc.cpu.hwcaps']
    const node = countSettingsFor({ runtime: { kind: 'node' } })
    expect(node).toMatchObject({ cpuBaseline: CPU_BASELINE.name, nodeFlags: [...NODE_COUNT_SETTINGS.nodeFlags, ...CPU_BASELINE.v8Flags] })
    expect(node.env.GLIBC_TUNABLES).toContain(`glibc.cpu.hwcaps=${hwcaps}`)
    const go = countSettingsFor({ runtime: { kind: 'go' } })
    expect(go.env.GODEBUG).toBe(`asyncpreemptoff=1,${CPU_BASELINE.goDebug}`)
    expect(go.nodeFlags).toEqual([])
    expect(countSettingsFor({ runtime: { kind: 'python' } }).env).toEqual({ GLIBC_TUNABLES: node.env.GLIBC_TUNABLES })
    expect(countSettingsFor({ runtime: { kind: 'deno' } }).env.DENO_V8_FLAGS).toBe(CPU_BASELINE.v8Flags.join(','))

    const user = withCpuBaseline(
      NODE_COUNT_SETTINGS,
      'node',
      'glibc.malloc.tcache_count=0:glibc.cpu.hwcaps=-SSE4_2:glibc.cpu.x86_data_cache_size=0x1000'
    )
    const entries = user.env.GLIBC_TUNABLES.split(':')
    expect(entries[0]).toBe('glibc.malloc.tcache_count=0')
    // The user's masks first, the baseline's after them (glibc reads the list in order); the user's cache size gives way.
    expect(entries).toContain(`glibc.cpu.hwcaps=-SSE4_2,${hwcaps}`)
    expect(entries).toContain(`glibc.cpu.x86_data_cache_size=${CPU_BASELINE.glibcTunables['glibc.cpu.x86_data_cache_size']}`)
    expect(entries).not.toContain('glibc.cpu.x86_data_cache_size=0x1000')
  })

  it('records which of the extensions it hides this cpu has, by the flags of /proc/cpuinfo', () => {
    const cpuinfo = 'processor\t: 0\nflags\t\t: fpu sse2 ssse3 sse4_2 popcnt avx avx2 bmi1 erms avx512f\n'
    expect(maskedCpuFlags(cpuinfo)).toEqual(['avx', 'avx2', 'bmi1', 'erms'])
    expect(maskedCpuFlags('processor\t: 0\nflags\t\t: fpu sse2 ssse3 sse4_1 sse4_2 popcnt cx16\n')).toEqual([])
  })
})
