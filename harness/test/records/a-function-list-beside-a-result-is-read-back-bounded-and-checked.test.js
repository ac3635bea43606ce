// @ts-check
// A count's function list is written gzipped beside its result and read back with it. What lies beside a result came from elsewhere
// (a run downloaded from CI): a list named other than after its result is never opened, a gzip that inflates past the bound, one that
// is not gzip and one of the wrong shape are each refused, naming the file; the result's other figures still read, and `dyno
// explain` says why it cannot explain that count.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { attachFunctionList, writeResultFile } from '../../src/records/function-list-file.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { BASELINE, CANDIDATE, countRecord } from '../support/two-function-profiles.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-function-list-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** @param {string} name @param {any} profile @returns {string} the result's path, its list written beside it */
function written (name, profile) {
  const dir = join(work, name)
  mkdirSync(dir)
  const path = join(dir, 'express--json.json')
  writeResultFile(path, countRecord(profile))
  return path
}

/** @param {string} path @returns {any} the result as read back, with its list attached */
function readBack (path) {
  const record = JSON.parse(readFileSync(path, 'utf8'))
  attachFunctionList(record, path)
  return record
}

describe('a function list beside a result', () => {
  it('is written gzipped beside the result, named after it, and read back whole', () => {
    const path = written('whole', BASELINE)
    const stored = JSON.parse(readFileSync(path, 'utf8'))
    expect(schemaErrors('result', stored)).toEqual([])
    expect(stored.instructions.functions.functions).toBeUndefined()
    expect(stored.instructions.functions.listFile).toBe('express--json.functions.json.gz')
    expect(readBack(path).instructions.functions.functions).toEqual(BASELINE.functions)
  })

  it('is never opened when the result names another file, and says so', () => {
    const path = written('renamed', BASELINE)
    const stored = JSON.parse(readFileSync(path, 'utf8'))
    writeFileSync(path, JSON.stringify({
      ...stored,
      instructions: {
        ...stored.instructions,
        functions: {
          ...stored.instructions.functions,
          listFile: '..%2f..%2fsecret.functions.json.gz'
        }
      }
    }))
    const profile = readBack(path).instructions.functions
    expect(profile.functions).toBeNull()
    expect(profile.listProblem).toContain('allowed: express--json.functions.json.gz, the file named after it')
    expect(profile.layers).toEqual(BASELINE.layers)
  })

  it('refuses a gzip that inflates past its bound, one that is not gzip, and one of another shape, naming the file', () => {
    const cases = [
      ['bomb', gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)), /inflates to more than the 16777216 bytes dyno reads there/],
      ['plain', Buffer.from('{"listVersion":1,"functions":[]}'), /is not gzip/],
      ['shape', gzipSync(JSON.stringify({ listVersion: 1, functions: [{ key: 'x', name: { toString: 1 } }] })),
        /is not a function list as dyno writes it/]
    ]
    for (const [name, bytes, problem] of /** @type {[string, Buffer, RegExp][]} */ (cases)) {
      const path = written(name, BASELINE)
      const list = join(work, name, 'express--json.functions.json.gz')
      writeFileSync(list, bytes)
      const profile = readBack(path).instructions.functions
      expect(profile.functions, name).toBeNull()
      expect(profile.listProblem, name).toContain(list)
      expect(profile.listProblem, name).toMatch(problem)
    }
  })

  it('lost, leaves dyno explain saying which list and why, with exit code 2', async () => {
    const baseline = written('explained-baseline', BASELINE)
    const candidate = written('explained-candidate', CANDIDATE)
    const list = join(work, 'explained-candidate', 'express--json.functions.json.gz')
    rmSync(list)
    const refused = await runCli(['explain', baseline, candidate])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(`DYNO_ERR_EXPLAIN_INPUT: candidate: ${candidate} has lost its function list: ${list} does not exist`)
    writeResultFile(candidate, countRecord(CANDIDATE))
    const explained = await runCli(['explain', baseline, candidate, '--format', 'json'])
    expect(explained.code, explained.stderr).toBe(0)
    expect(JSON.parse(explained.stdout).explanations[0].charged[0].fn.name).toBe('send')
  })
})
