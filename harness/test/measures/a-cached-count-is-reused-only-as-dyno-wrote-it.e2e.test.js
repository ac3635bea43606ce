// @ts-check
// A count is kept in the cache directory and a later run of the same code reuses it, saying where it came from. A cached count
// that dyno did not write with that directory's key (made up, or edited by hand to other figures) is not taken as measured: it
// is ignored in one line and counted again.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('valgrind')
const cacheDir = mkdtempSync(join(tmpdir(), 'dyno-count-cache-'))
const out = mkdtempSync(join(tmpdir(), 'dyno-count-cache-runs-'))

/** @returns {Promise<{ stderr: string, record: any }>} the one count of node-http × json */
async function count () {
  const result = await runCli(
    dynoRun({
      frameworks: 'node-http',
      scenarios: 'json',
      measure: 'instructions',
      countWarmupRequests: 300,
      countWindowRequests: 100,
      countWindows: 3,
      cacheDir,
      out
    }),
    { timeoutMs: 180_000 }
  )
  expect(result.code, result.stderr).toBe(0)
  const runDir = /results: (.+)/.exec(result.stdout)?.[1] ?? ''
  const { index, records: [record] } = writtenRun(runDir)
  runs.add(index.runId)
  return { stderr: result.stderr, record }
}

describe.skipIf(absent)(`the count cache${skipNote(absent)}`, () => {
  it('reuses a count dyno kept, and counts again one that was made up or edited', async () => {
    const first = await count()
    expect(first.record.status).toBe('ok')
    expect(first.record.instructions.cachedFrom).toBeUndefined()
    const [entryName] = readdirSync(join(cacheDir, 'counts'))
    const entryFile = join(cacheDir, 'counts', entryName)
    // The key that seals the cache is its owner's alone.
    expect(statSync(join(cacheDir, 'seal.key')).mode & 0o077).toBe(0)

    const reused = await count()
    expect(reused.record.instructions.cachedFrom).toMatchObject({ runId: first.record.runId })
    expect(reused.record.instructions.instructionsPerRequest).toBe(first.record.instructions.instructionsPerRequest)

    // Edited by hand: the same entry, every window ten times cheaper.
    const kept = JSON.parse(readFileSync(entryFile, 'utf8'))
    const cheaper = kept.instructions.windows.map((/** @type {any} */ window) => ({
      ...window,
      instructionsPerRequest: window.instructionsPerRequest / 10
    }))
    writeFileSync(entryFile, JSON.stringify({ ...kept, instructions: { ...kept.instructions, windows: cheaper } }))
    const edited = await count()
    expect(edited.stderr).toContain(
      `the cached count ${entryFile} was not written by dyno with this cache directory (its seal does not hold): ` +
        'ignored, counted again'
    )
    expect(edited.record.instructions.cachedFrom).toBeUndefined()
    expect(edited.record.instructions.instructionsPerRequest).toBeGreaterThan(first.record.instructions.instructionsPerRequest / 2)

    // Made up from nothing, without a seal.
    const { seal, ...unsealed } = JSON.parse(readFileSync(entryFile, 'utf8'))
    expect(seal).toMatch(/^[0-9a-f]{64}$/)
    writeFileSync(entryFile, JSON.stringify(unsealed))
    const madeUp = await count()
    expect(madeUp.stderr).toContain(`the cached count ${entryFile} was not written by dyno`)
    expect(madeUp.record.instructions.cachedFrom).toBeUndefined()
  }, 600_000)

  afterAll(() => runs.expectNoneLeft(expect))
})
