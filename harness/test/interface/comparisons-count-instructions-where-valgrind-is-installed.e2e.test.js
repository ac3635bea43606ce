// @ts-check
// compare-commits and compare-versions are regression gates: unless --measure says otherwise, they count instructions where
// valgrind and vgdb are on PATH, and compare by wall clock where they are not, saying so in one line. `dyno run` measures
// wall clock unless told. The machine's answer is taken when the command line is parsed, and every later layer reads it there.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LOAD_PROFILES } from '@dyno/scenarios'
import { afterAll, describe, expect, it } from 'vitest'
import { parseOptions } from '../../src/interface/cli/command-table.js'
import { forwardedRunArgs } from '../../src/interface/commands/compare-commits-command.js'
import { instructions } from '../../src/measures/instructions/instructions.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'

const COMPARISONS = /** @type {const} */ (['compare-commits', 'compare-versions'])
const NOTICE = 'valgrind is not installed here: comparing by wall clock; apt-get install valgrind to compare instruction counts'
const COMPARED_SCENARIOS = /** @type {string[]} */ (instructions.comparison.defaults.scenarios(LOAD_PROFILES.ci))
const COUNTED_SCENARIOS = COMPARED_SCENARIOS.join(',')
const CI_SCENARIOS = /** @type {string[]} */ (LOAD_PROFILES.ci.scenarios).join(',')

/** A PATH that holds node and nothing else: no valgrind, whatever this machine has installed. */
const bare = mkdtempSync(join(tmpdir(), 'dyno-no-valgrind-'))
symlinkSync(process.execPath, join(bare, 'node'))
const WITHOUT_VALGRIND = { ...process.env, PATH: bare }
afterAll(() => rmSync(bare, { recursive: true, force: true }))

/**
 * The plan of a compare-commits, as the CLI prints it with --plan, and what it said on stderr.
 * @param {string[]} options @param {NodeJS.ProcessEnv} env
 */
async function planOf (options, env) {
  const { code, stdout, stderr } = await runCli(['compare-commits', 'HEAD', 'HEAD', '--plan', '--frameworks', 'node-http', ...options], {
    env
  })
  expect(code, stderr).toBe(0)
  const plan = JSON.parse(stdout)
  return { scenarios: plan.parts[0].subsets[0].scenarios.join(','), stderr }
}

/**
 * The measure a command's parsed options hold, parsed in a node of its own whose PATH is `env`'s.
 * @param {string} command @param {Record<string, string>} typed @param {NodeJS.ProcessEnv} env
 */
function parsedMeasure (command, typed, env) {
  const parse = new URL('../../src/interface/cli/command-table.js', import.meta.url).href
  const script = `import { parseOptions } from ${JSON.stringify(parse)}\n` +
    `process.stdout.write(parseOptions(${JSON.stringify(command)}, ${JSON.stringify(typed)}).values.measure)`
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' })
}

const absent = missing('valgrind')

describe.skipIf(absent)(`with valgrind and vgdb on PATH${skipNote(absent)}`, () => {
  it.each(COMPARISONS)('%s counts instructions: one round on the framework\'s own path, and nothing to say', (command) => {
    const { values, notices } = parseOptions(command, {})
    expect(values).toMatchObject({ measure: 'instructions', repeats: 1, scenarios: COMPARED_SCENARIOS })
    expect(notices).toEqual([])
  })

  it('dyno run still measures wall clock', () => {
    expect(parseOptions('run', {}).values.measure).toBe('wall-clock')
  })

  it('every round of compare-commits is told to count, since `dyno run` would not by itself', async () => {
    expect(forwardedRunArgs(parseOptions('compare-commits', {}))).toEqual([
      '--profile',
      'ci',
      '--scenarios',
      COUNTED_SCENARIOS,
      '--measure',
      'instructions'
    ])
    const { scenarios, stderr } = await planOf([], process.env)
    expect(scenarios).toBe(COUNTED_SCENARIOS)
    expect(stderr).not.toContain('valgrind')
  })

  it.each(COMPARISONS)('%s measures wall clock when --measure wall-clock is given, and says nothing', (command) => {
    const { values, notices } = parseOptions(command, { '--measure': 'wall-clock' })
    expect(values).toMatchObject({ measure: 'wall-clock', repeats: LOAD_PROFILES.ci.repeats, scenarios: LOAD_PROFILES.ci.scenarios })
    expect(notices).toEqual([])
  })
})

describe('with a PATH that lacks valgrind', () => {
  it.each(COMPARISONS)('%s compares by wall clock', (command) => {
    expect(parsedMeasure(command, {}, WITHOUT_VALGRIND)).toBe('wall-clock')
    expect(parsedMeasure('run', {}, WITHOUT_VALGRIND)).toBe('wall-clock')
  })

  it('compare-commits says why, once, and plans the ci profile\'s wall-clock rounds', async () => {
    const { scenarios, stderr } = await planOf([], WITHOUT_VALGRIND)
    expect(scenarios).toBe(CI_SCENARIOS)
    expect(stderr).toBe(`dyno compare-commits: ${NOTICE}\n`)
  })

  it('compare-versions says why, once, before it looks at its variants', async () => {
    const { code, stderr } = await runCli(['compare-versions', 'express', 'fastify'], { env: WITHOUT_VALGRIND })
    expect(code).toBe(2)
    expect(stderr.split('\n').filter((line) => line.includes('valgrind'))).toEqual([`dyno compare-versions: ${NOTICE}`])
    expect(stderr).toMatch(
      /^dyno compare-versions: valgrind .*\nDYNO_ERR_INVALID_OPTION: compare-versions compares two variants of one SUT/
    )
  })

  it('an explicit --measure wins, and nothing is said', async () => {
    for (const command of COMPARISONS) {
      expect(parsedMeasure(command, { '--measure': 'instructions' }, WITHOUT_VALGRIND)).toBe('instructions')
    }
    const wallClock = await planOf(['--measure', 'wall-clock'], WITHOUT_VALGRIND)
    expect(wallClock).toEqual({ scenarios: CI_SCENARIOS, stderr: '' })
    // A CI job that plans a count on a runner without valgrind (bench.yml's plan job) plans the count its parts will make.
    const counting = await planOf(['--measure', 'instructions'], WITHOUT_VALGRIND)
    expect(counting).toEqual({ scenarios: COUNTED_SCENARIOS, stderr: '' })
  })
})
