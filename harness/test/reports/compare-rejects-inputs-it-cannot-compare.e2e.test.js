// @ts-check
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { SCHEMA_VERSION } from '../../src/platform/defaults.js'
import { copyOfRun, FOUR_REPEATS } from '../support/compare-inputs.js'
import { runCli } from '../support/run-cli.js'

// Copies of a committed real run (4 repeats), broken in one way each.
let good = ''

beforeAll(() => {
  good = copyOfRun(FOUR_REPEATS)
})

/** @param {string} dir @param {(document: any, file: string) => void} edit every JSON file of a run directory */
function editRun (dir, edit) {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const path = join(dir, file)
    const document = JSON.parse(readFileSync(path, 'utf8'))
    edit(document, file)
    writeFileSync(path, JSON.stringify(document))
  }
  return dir
}

/**
 * @param {string} baseline @param {string} candidate
 * @param {string} code @param {RegExp} message
 */
async function expectRefused (baseline, candidate, code, message) {
  const result = await runCli(['compare', baseline, candidate])
  expect(result.code).toBe(2)
  expect(result.stdout).toBe('')
  expect(result.stderr).toMatch(new RegExp(`^${code}: `))
  expect(result.stderr).toMatch(message)
  return result
}

describe('dyno compare refuses, exit 2, naming the file and what is wrong', () => {
  it('a path that does not exist', async () => {
    const missing = join(tmpdir(), 'dyno-no-such-run')
    await expectRefused(good, missing, 'DYNO_ERR_COMPARE_INPUT', new RegExp(`candidate: ${missing} does not exist`))
  })

  it('a result file that is not JSON', async () => {
    const corrupt = join(mkdtempSync(join(tmpdir(), 'dyno-compare-corrupt-')), 'node-http--json.json')
    writeFileSync(corrupt, '{"schemaVersion": 2, "sut": ')
    await expectRefused(corrupt, good, 'DYNO_ERR_COMPARE_INPUT', new RegExp(`baseline: ${corrupt} is not valid JSON`))
  })

  it('a run directory whose result file is gone', async () => {
    const broken = copyOfRun(FOUR_REPEATS)
    rmSync(join(broken, 'node-http--json--r2.json'))
    await expectRefused(
      good,
      broken,
      'DYNO_ERR_COMPARE_INPUT',
      new RegExp(`candidate: ${join(broken, 'node-http--json--r2.json')}: cannot read a result`)
    )
  })

  it('a directory that holds no run', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dyno-compare-empty-'))
    mkdirSync(join(empty, 'not-a-run'))
    await expectRefused(empty, good, 'DYNO_ERR_COMPARE_INPUT',
      new RegExp(`baseline: ${empty} is not a dyno run directory \\(it has no run\\.json\\) and holds no run directories`))
  })

  it('a JSON file that is not a result', async () => {
    const aggregates = join(good, 'aggregates.json')
    await expectRefused(good, aggregates, 'DYNO_ERR_COMPARE_INPUT',
      new RegExp(`candidate: ${aggregates} is not a dyno result file: \`sut\\.name\` must be a string`))
  })

  it('sides of different schema versions', async () => {
    const older = editRun(copyOfRun(FOUR_REPEATS), (document) => { document.schemaVersion = SCHEMA_VERSION - 1 })
    await expectRefused(
      good,
      older,
      'DYNO_ERR_COMPARE_SCHEMA',
      new RegExp(
        `the baseline \\(${good}\\) has result schema version ${SCHEMA_VERSION}, ` +
          `the candidate \\(${older}\\) has ${SCHEMA_VERSION - 1}: results of different schema versions are not compared`
      )
    )
  })

  it('a schema version this dyno cannot read', async () => {
    const newer = editRun(copyOfRun(FOUR_REPEATS), (document) => { document.schemaVersion = 99 })
    await expectRefused(
      newer,
      newer,
      'DYNO_ERR_COMPARE_INPUT',
      new RegExp(
        'baseline: .*run\\.json: not a run index as dyno writes it: it has schema version 99; this dyno reads versions 1 to ' +
          `${SCHEMA_VERSION}`
      )
    )
  })

  it('sides with no SUT, scenario and connections in common', async () => {
    const other = editRun(copyOfRun(FOUR_REPEATS), (document, file) => {
      if (file.startsWith('node-http')) document.sut = { ...document.sut, name: 'koa', label: 'koa' }
    })
    await expectRefused(good, other, 'DYNO_ERR_COMPARE_DISJOINT',
      new RegExp('no \\(SUT, scenario, connections\\) in common: baseline SUTs node-http × scenarios json × connections 10 \\(.*\\); ' +
        'candidate SUTs koa × scenarios json × connections 10'))
  })

  it('a missing argument', async () => {
    const result = await runCli(['compare', good])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_INVALID_OPTION: missing required args for command `dyno compare <baseline> <candidate>`/)
  })
})
