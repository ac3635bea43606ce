// @ts-check
// Options are validated once, at the boundary, against the option table: every option of every command
// (taken from the table, so an option added tomorrow is covered the day it is added) gets its default when
// absent, its typed field when valid, and is refused, naming the option and the value, when not.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { describe, expect, it } from 'vitest'
import { frameworkEntryList, frameworkList, frameworkRangeList, runtimeList, scenarioList } from '../../src/interface/cli/option-parsers.js'
import { COMMAND_OPTIONS, COMMANDS } from '../../src/interface/cli/command-table.js'
import { flagName } from '../../src/platform/options/option-spec.js'
import { parseOptions } from '../../src/interface/cli/command-table.js'
import { RUNTIME_NAMES } from '../../src/subjects/runtimes/runtime-targets.js'
import { fileURLToPath } from 'node:url'
import { runCli } from '../support/run-cli.js'
import { skipUnless } from '../support/needs.js'

/** @typedef {import('../../src/platform/options/option-spec.js').OptionSpec} OptionSpec */
/** @typedef {string} Command */

/** A service of its own, for `--app`. */
const TINY_SERVICE = fileURLToPath(new URL('../fixtures/apps/tiny-service', import.meta.url))
/** Every option of every command, as [command, spec]. */
const EVERY_OPTION = /** @type {[Command, OptionSpec][]} */ (
  Object.entries(COMMAND_OPTIONS).flatMap(([command, specs]) => specs.map((spec) => [command, spec]))
)
const optionTitle = (/** @type {[Command, OptionSpec]} */ [command, spec]) => `${command} ${flagName(spec)}`

/** Valid names for each list-of-names parser, a repeat included (it is dropped). */
const VALID_NAMES = new Map([
  [frameworkList, ['node-http', 'express']],
  [frameworkEntryList, ['node-http', 'express@4.21.2', 'express@^4', 'koa@latest', 'express']],
  [frameworkRangeList, ['express@>=4.18.0', 'fastify@^4 || ^5', 'koa@*']],
  [scenarioList, SCENARIOS.map((scenario) => scenario.name)],
  [runtimeList, [...RUNTIME_NAMES]]
])

/**
 * Values an option accepts, as typed and as parsed, from what its parser says it accepts.
 * @param {OptionSpec} spec
 * @returns {[unknown, unknown][]}
 */
function validValues (spec) {
  const domain = spec.parse.domain
  switch (domain.kind) {
    case 'whole':
      return [
        [String(domain.min), domain.min],
        [` ${domain.max} `, domain.max]
      ]
    case 'wholeList':
      return [[`${domain.max}, ${domain.min},${domain.max}`, [domain.max, domain.min]]]
    case 'seconds':
    case 'positive': {
      /** @type {[unknown, unknown][]} */
      const values = [
        [String(domain.min + 0.5), domain.min + 0.5],
        [String(domain.max), domain.max]
      ]
      return domain.minExclusive ? values : [...values, [String(domain.min), domain.min]]
    }
    case 'percentage':
      return domain.maxExclusive
        ? [
            [`${domain.max - 1}%`, domain.max - 1],
            [String(domain.min + 0.5), domain.min + 0.5],
            ['2.5', 2.5]
          ]
        : [
            [`${domain.max}%`, domain.max],
            [String(domain.min), domain.min],
            ['2.5', 2.5]
          ]
    case 'oneOf':
      return domain.allowed.map((value) => [value, value])
    case 'subset':
      return [
        [domain.allowed.join(','), [...domain.allowed]],
        [`${domain.allowed[0]},${domain.allowed[0]}`, [domain.allowed[0]]]
      ]
    case 'names': {
      const names = VALID_NAMES.get(spec.parse)
      if (!names) throw new Error(`no valid names known for ${flagName(spec)}: add its parser to VALID_NAMES`)
      return [[[...names, names[0]].join(','), names]]
    }
    case 'pin':
      return [
        ['auto', { mode: 'auto' }],
        ['off', { mode: 'off' }]
      ]
    case 'hostList':
      return [
        ['local', [{ kind: 'local', url: 'local' }]],
        [
          'ssh://bench@10.0.0.2, local',
          [
            { kind: 'ssh', url: 'ssh://bench@10.0.0.2', user: 'bench', hostname: '10.0.0.2', port: null, dir: 'dyno' },
            { kind: 'local', url: 'local' }
          ]
        ]
      ]
    case 'host':
      return [
        ['local', { kind: 'local', url: 'local' }],
        [
          'ssh://bench@10.0.0.2',
          { kind: 'ssh', url: 'ssh://bench@10.0.0.2', user: 'bench', hostname: '10.0.0.2', port: null, dir: 'dyno' }
        ],
        [
          'ssh://sut-box:2222/srv/dyno/',
          { kind: 'ssh', url: 'ssh://sut-box:2222/srv/dyno', user: null, hostname: 'sut-box', port: 2222, dir: '/srv/dyno' }
        ]
      ]
    case 'shard':
      return [
        ['2/4', { index: 2, count: 4 }],
        [' 1/1 ', { index: 1, count: 1 }],
        ['256/256', { index: 256, count: 256 }]
      ]
    case 'outputDirectory': {
      const out = join(mkdtempSync(join(tmpdir(), 'dyno-options-')), 'results')
      return [[out, out]]
    }
    case 'inputDirectory': {
      const dir = mkdtempSync(join(tmpdir(), 'dyno-options-'))
      return [[dir, dir]]
    }
    case 'app':
      return [[TINY_SERVICE, expect.objectContaining({ name: 'tiny-service', scenarios: expect.any(Array) })]]
    case 'inputFile':
      return [[join(TINY_SERVICE, 'server.js'), join(TINY_SERVICE, 'server.js')]]
    case 'text':
      return [['node server.js --port "$PORT"', 'node server.js --port "$PORT"']]
    // Given, the option says what it names (`--paired`: paired); `--no-verify` turns its field off.
    case 'flag':
      return [[true, !flagName(spec).startsWith('--no-')]]
    case 'objective':
      return [
        ['p99<=10ms', 'p99<=10ms'],
        [' p99.9 <= 0.5s , p50<=2000us ', 'p99.9<=0.5s,p50<=2000us']
      ]
  }
}

/**
 * A value the option refuses, and what the message must say besides the option and the value.
 * @param {OptionSpec} spec
 * @returns {{ value: unknown, says: string }}
 */
function refusedValue (spec) {
  const domain = spec.parse.domain
  switch (domain.kind) {
    case 'whole': return { value: String(domain.max + 1), says: `a whole number from ${domain.min} to ${domain.max}` }
    case 'wholeList': return {
      value: `${domain.min},${domain.max + 1}`,
      says: `a whole number from ${domain.min} to ${domain.max}, or a comma-separated ` +
        'list of them'
    }
    case 'seconds': return { value: String(domain.max + 1), says: `to ${domain.max}` }
    case 'positive': return { value: domain.minExclusive ? String(domain.min) : String(domain.max + 1), says: `at most ${domain.max}` }
    case 'percentage': return domain.maxExclusive
      ? { value: `${domain.max}%`, says: `a percentage above ${domain.min} and below ${domain.max}` }
      : { value: `${domain.max + 1}%`, says: `a percentage from ${domain.min} to ${domain.max}` }
    case 'oneOf': return { value: 'nope', says: `one of ${domain.allowed.join(', ')}` }
    case 'subset': return { value: `${domain.allowed[0]},nope`, says: `one or more of ${domain.allowed.join(', ')}` }
    case 'names': return { value: ',,', says: 'a comma-separated list of at least one name' }
    case 'pin': return { value: 'sut=0', says: 'both `sut=` and `gen=` are needed' }
    case 'hostList': return { value: 'local,local', says: 'a list that names each host once (`local` is there twice)' }
    case 'host': return {
      value: 'http://host',
      says: 'must name a host: `local` (this machine) or ' +
      '`ssh://[user@]host[:port][/absolute/dir]` such as'
    }
    case 'shard': return { value: '4/3', says: 'K/N: part K of N parts, whole numbers with 1 ≤ K ≤ N ≤ 256' }
    case 'outputDirectory': return { value: '', says: 'a directory path' }
    case 'inputDirectory': return { value: '/nonexistent/run', says: 'an existing directory' }
    case 'app': return { value: '/nonexistent/service', says: 'an existing directory holding one of dyno.config.yaml, dyno.config.yml' }
    case 'inputFile': return { value: '/nonexistent/openapi.yaml', says: 'an existing file' }
    case 'text': return { value: ' ', says: 'one line of text' }
    case 'flag': return { value: 'yes', says: 'given without a value' }
    case 'objective': return { value: 'p101<=10ms', says: 'names percentile 101, out of range (above 0 and below 100)' }
  }
}

describe('option parsing', () => {
  it.each(Object.keys(COMMAND_OPTIONS))('%s: gives every option of the table a value when nothing is given: its default, or one derived ' +
    'from the others', (command) => {
    const specs = COMMAND_OPTIONS[/** @type {Command} */ (command)]
    const { values, given } = parseOptions(/** @type {Command} */ (command), {})
    expect(given.size).toBe(0)
    expect(Object.keys(values).sort()).toEqual(specs.map((spec) => spec.field).sort())
    for (const spec of specs) {
      if (spec.derive) expect(values[spec.field], flagName(spec)).not.toBeUndefined()
      else expect(values[spec.field], flagName(spec)).toEqual(spec.default)
    }
  })

  it('takes the load settings from the profile when they are not given', () => {
    // See profiles-set-the-load-and-options-override-them.test.js for the profiles themselves.
    const { values } = parseOptions('run', { '--profile': 'paper' })
    expect(values).toMatchObject({
      profile: 'paper',
      connections: [100],
      durationSec: 10,
      warmupSec: 3,
      pipelining: 1,
      repeats: 10,
      verify: true
    })
  })

  it('names an unknown runtime and lists the valid ones', () => {
    expect(() => parseOptions('run', { '--runtime': 'node@22,node@18' })).toThrowError(
      expect.objectContaining({
        code: 'DYNO_ERR_UNKNOWN_RUNTIME', message: expect.stringMatching(/`node@18`; valid: node, node@20, node@22, node@24, bun, deno/)
      }))
    expect(parseOptions('run', { '--runtime': 'node@22,bun,node@22' }).values.runtimes).toEqual(['node@22', 'bun'])
  })

  it('turns valid values into typed fields with units', () => {
    const parsed = parseOptions('run', {
      '--frameworks': 'fastify, express,fastify',
      '--connections': '64',
      '--duration': '2.5',
      '--warmup': '0',
      '--pipelining': '4',
      '--no-verify': true
    }).values
    expect(parsed).toMatchObject({
      frameworks: ['fastify', 'express'],
      connections: [64],
      durationSec: 2.5,
      warmupSec: 0,
      pipelining: 4,
      verify: false
    })
  })

  it.each(EVERY_OPTION.map((entry) => [optionTitle(entry), ...entry]))('%s: turns every kind of valid value into its ' +
    'typed field', (_, command, spec) => {
    for (const [raw, typed] of validValues(spec)) {
      expect(
        parseOptions(command, { [flagName(spec)]: /** @type {string | true} */ (raw) }).values[spec.field],
        `${flagName(spec)} ${JSON.stringify(raw)}`
      ).toEqual(typed)
    }
  })

  it.each(EVERY_OPTION.map((entry) => [optionTitle(entry), ...entry]))('%s: refuses a value outside what it allows, ' +
    'naming the option, the value and what is allowed', (_, command, spec) => {
    const { value, says } = refusedValue(spec)
    let thrown
    try {
      parseOptions(command, { [flagName(spec)]: /** @type {string} */ (value) })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ code: 'DYNO_ERR_INVALID_OPTION' })
    const { message } = /** @type {Error} */ (thrown)
    expect(message).toMatch(new RegExp(`^\`${flagName(spec)}\` `))
    expect(message).toContain(says)
    expect(message).toMatch(new RegExp(`, got \`${String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`$`))
  })

  it.each([
    [{ '--connections': 'abc' }, /`--connections` must be a whole number from 1 to 10000, or a comma-separated list of them, got `abc`/],
    [{ '--connections': '0' }, /`--connections` .* got `0`/],
    [{ '--connections': '2.5' }, /`--connections` .* got `2.5`/],
    [{ '--duration': '0' }, /`--duration` must be a number of seconds above 0 .* got `0`/],
    [{ '--duration': '-3' }, /`--duration` .* got `-3`/],
    [{ '--warmup': 'soon' }, /`--warmup` .* got `soon`/],
    [{ '--launch-warmup': '-1' }, /`--launch-warmup` must be .* got `-1`/],
    [{ '--pipelining': '101' }, /`--pipelining` must be a whole number from 1 to 100, got `101`/],
    [{ '--ready-timeout': 'x' }, /`--ready-timeout` .* got `x`/],
    [{ '--frameworks': ',,' }, /`--frameworks` must be a comma-separated list of at least one name/],
    [{ '--out': '' }, /`--out` must be a directory path/]
  ])('rejects %j, naming the option, the value and what is allowed', (raw, message) => {
    expect(() => parseOptions('run', raw)).toThrowError(message)
  })
})

describe('the CLI on bad input', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'dyno-cli-')), 'results')

  it('exits 2 naming an unknown framework and the valid ones, and starts nothing', async () => {
    const result = await runCli(['run', '--frameworks', 'nope', '--out', out])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(
      /DYNO_ERR_UNKNOWN_FRAMEWORK: `--frameworks`: unknown framework `nope`; valid: .*express.*fastify.*node-http/
    )
    expect(existsSync(out)).toBe(false)
  })

  it('exits 2 naming an unknown scenario and the valid ones', async () => {
    const result = await runCli(['run', '--scenarios', 'json,jsonn', '--out', out])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_UNKNOWN_SCENARIO: `--scenarios`: unknown scenario `jsonn`; valid: plaintext, json,/)
    expect(existsSync(out)).toBe(false)
  })

  it('exits 2 on a bad value', async () => {
    const result = await runCli(['run', '--connections', 'abc', '--out', out])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('DYNO_ERR_INVALID_OPTION: `--connections` must be a whole number from 1 to 10000, ' +
      'or a comma-separated list of them, got `abc`')
    expect(existsSync(out)).toBe(false)
  })

  it('exits 2 on an unknown option or command', async () => {
    const unknownOption = await runCli(['run', '--frobnicate', '3'])
    expect(unknownOption.code).toBe(2)
    expect(unknownOption.stderr).toMatch(/DYNO_ERR_INVALID_OPTION: Unknown option `--frobnicate` for `dyno run`/)
    const unknownCommand = await runCli(['launch'])
    expect(unknownCommand.code).toBe(2)
    // Every command of the registry, in its order.
    expect(COMMANDS.map((command) => command.name)).toEqual(expect.arrayContaining(['run', 'compare', 'explain', 'list']))
    expect(unknownCommand.stderr).toContain('DYNO_ERR_UNKNOWN_COMMAND: unknown command `launch`; ' +
      `valid: ${COMMANDS.map((command) => command.name).join(', ')}`)
  })

  it('exits 2 when wrk is asked for what it cannot do', async () => {
    const fractional = await runCli(['run', '--engine', 'wrk', '--duration', '1.5', '--out', out])
    expect(fractional.code).toBe(2)
    expect(fractional.stderr).toMatch(
      /DYNO_ERR_INVALID_OPTION: (`--duration` must be whole seconds with `--engine wrk`, got `1.5`|`--engine wrk` needs wrk on PATH)/
    )
    const launchWarmup = await runCli([
      'run', '--engine', 'wrk', '--duration', '1', '--warmup', '1', '--launch-warmup', '0.5', '--out', out
    ])
    expect(launchWarmup.code).toBe(2)
    expect(launchWarmup.stderr).toMatch(
      /DYNO_ERR_INVALID_OPTION: (`--launch-warmup` must be whole seconds with `--engine wrk`, got `0.5`|`--engine wrk` needs wrk on PATH)/
    )
    const engine = await runCli(['run', '--engine', 'ab', '--out', out])
    expect(engine.stderr).toContain('DYNO_ERR_INVALID_OPTION: `--engine` must be one of auto, autocannon, wrk, native, got `ab`')
    expect(existsSync(out)).toBe(false)
  })

  it.each(Object.keys(COMMAND_OPTIONS))('%s --help lists every option of the table with its description', async (command) => {
    const result = await runCli([command, '--help'])
    expect(result.code).toBe(0)
    const lines = result.stdout.split('\n')
    for (const spec of COMMAND_OPTIONS[/** @type {Command} */ (command)]) {
      const line = lines.find((candidate) => candidate.trimStart().startsWith(`${spec.flag} `))
      expect(line, `${command} --help: ${spec.flag}`).toBeDefined()
      expect(line).toContain(spec.description)
    }
  })

  it('lists the SUTs with installed versions, the runtimes and the scenarios', async () => {
    const result = await runCli(['list'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/fastify\s+│\s+node, --runtime\s+│\s+fastify\s+│\s+5\.\d+\.\d+/)
    expect(result.stdout).toMatch(/express\s+│\s+node, --runtime\s+│\s+express\s+│\s+5\.\d+\.\d+/)
    expect(result.stdout).toMatch(/node@24\s+│\s+v24\.\d+\.\d+/)
    expect(result.stdout).toMatch(/json\s+│\s+GET \/json/)
  })

  it('lists a Go SUT with the framework version its build recorded', async (context) => {
    skipUnless(context, 'go')
    expect((await runCli(['list'])).stdout).toMatch(/go-gin\s+│\s+go\s+│\s+gin\s+│\s+1\.\d+\.\d+/)
  })
})
