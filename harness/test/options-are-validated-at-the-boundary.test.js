// @ts-check
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseOptions } from '../src/cli/parse-options.js'
import { DEFAULTS } from '../src/defaults.js'
import { INSTRUCTION_COUNT_DEFAULTS } from '../src/instructions/count-instructions.js'
import { runCli } from './support/run-cli.js'

describe('option parsing', () => {
  it('applies the defaults when nothing is given', () => {
    // Load settings come from the profile (see profiles-set-the-load-and-options-override-them.test.js).
    expect(parseOptions('run', {})).toEqual({
      profile: 'quick',
      pin: 'auto',
      engine: 'autocannon',
      wrkThreads: 1,
      measure: 'wall-clock',
      countWarmupRequests: INSTRUCTION_COUNT_DEFAULTS.warmupRequests,
      countWindowRequests: INSTRUCTION_COUNT_DEFAULTS.windowRequests,
      countWindows: INSTRUCTION_COUNT_DEFAULTS.windows,
      out: DEFAULTS.out,
      readyTimeoutSec: DEFAULTS.readyTimeoutSec,
      pgPoolSize: DEFAULTS.pgPoolSize,
      windowMs: DEFAULTS.windowMs,
      workers: 1,
      verify: true
    })
  })

  it('names an unknown runtime and lists the valid ones', () => {
    expect(() => parseOptions('run', { runtime: 'node@22,node@18' })).toThrowError(
      expect.objectContaining({ code: 'DYNO_ERR_UNKNOWN_RUNTIME', message: expect.stringMatching(/`node@18`; valid: node, node@20, node@22, node@24, bun, deno/) }))
    expect(parseOptions('run', { runtime: 'node@22,bun,node@22' }).runtimes).toEqual(['node@22', 'bun'])
  })

  it('turns valid values into typed fields with units', () => {
    const parsed = parseOptions('run', { frameworks: 'fastify, express,fastify', connections: '64', duration: '2.5', warmup: 0, pipelining: 4, verify: false })
    expect(parsed).toMatchObject({ frameworks: ['fastify', 'express'], connections: [64], durationSec: 2.5, warmupSec: 0, pipelining: 4, verify: false })
  })

  it.each([
    [{ connections: 'abc' }, /`--connections` must be a whole number from 1 to 10000, or a comma-separated list of them, got `abc`/],
    [{ connections: 0 }, /`--connections` .* got `0`/],
    [{ connections: '2.5' }, /`--connections` .* got `2.5`/],
    [{ duration: 0 }, /`--duration` must be a number of seconds above 0 .* got `0`/],
    [{ duration: '-3' }, /`--duration` .* got `-3`/],
    [{ warmup: 'soon' }, /`--warmup` .* got `soon`/],
    [{ pipelining: 101 }, /`--pipelining` must be a whole number from 1 to 100, got `101`/],
    [{ readyTimeout: 'x' }, /`--ready-timeout` .* got `x`/],
    [{ frameworks: ',,' }, /`--frameworks` must be a comma-separated list of at least one name/],
    [{ out: '' }, /`--out` must be a directory path/]
  ])('rejects %j, naming the option, the value and what is allowed', (raw, message) => {
    expect(() => parseOptions('run', raw)).toThrowError(message)
  })
})

describe('the CLI on bad input', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'dyno-cli-')), 'results')

  it('exits 2 naming an unknown framework and the valid ones, and starts nothing', async () => {
    const result = await runCli(['run', '--frameworks', 'nope', '--out', out])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_UNKNOWN_FRAMEWORK: `--frameworks`: unknown framework `nope`; valid: .*express.*fastify.*node-http/)
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
    expect(result.stderr).toContain('DYNO_ERR_INVALID_OPTION: `--connections` must be a whole number from 1 to 10000, or a comma-separated list of them, got `abc`')
    expect(existsSync(out)).toBe(false)
  })

  it('exits 2 on an unknown option or command', async () => {
    const unknownOption = await runCli(['run', '--frobnicate', '3'])
    expect(unknownOption.code).toBe(2)
    expect(unknownOption.stderr).toMatch(/DYNO_ERR_INVALID_OPTION: Unknown option `--frobnicate`/)
    const unknownCommand = await runCli(['launch'])
    expect(unknownCommand.code).toBe(2)
    expect(unknownCommand.stderr).toContain('DYNO_ERR_UNKNOWN_COMMAND: unknown command `launch`; valid: run, verify, calibrate, report, compare, compare-commits, list')
  })

  it('exits 2 when wrk is asked for what it cannot do', async () => {
    const fractional = await runCli(['run', '--engine', 'wrk', '--duration', '1.5', '--out', out])
    expect(fractional.code).toBe(2)
    expect(fractional.stderr).toMatch(/DYNO_ERR_INVALID_OPTION: (`--duration` must be whole seconds with `--engine wrk`, got `1.5`|`--engine wrk` needs wrk on PATH)/)
    const engine = await runCli(['run', '--engine', 'ab', '--out', out])
    expect(engine.stderr).toContain('DYNO_ERR_INVALID_OPTION: `--engine` must be one of autocannon, wrk, native, got `ab`')
    expect(existsSync(out)).toBe(false)
  })

  it('prints help generated from the option table', async () => {
    const result = await runCli(['run', '--help'])
    expect(result.code).toBe(0)
    for (const flag of ['--frameworks <names>', '--scenarios <names>', '--profile <name>', '--repeats <n>', '--seed <n>', '--connections <n>', '--duration <sec>', '--warmup <sec>', '--pipelining <n>', '--out <dir>', '--ready-timeout <sec>', '--pg-pool-size <n>', '--window-ms <ms>', '--pin <mode>', '--rate <n>', '--engine <name>', '--wrk-threads <n>', '--no-verify']) {
      expect(result.stdout).toContain(flag)
    }
  })

  it('lists the SUTs with installed versions, the runtimes and the scenarios', async () => {
    const result = await runCli(['list'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/fastify\s+│\s+node, --runtime\s+│\s+fastify\s+│\s+5\.\d+\.\d+/)
    expect(result.stdout).toMatch(/express\s+│\s+node, --runtime\s+│\s+express\s+│\s+5\.\d+\.\d+/)
    expect(result.stdout).toMatch(/go-gin\s+│\s+go\s+│\s+gin\s+│\s+1\.\d+\.\d+/)
    expect(result.stdout).toMatch(/node@24\s+│\s+v24\.\d+\.\d+/)
    expect(result.stdout).toMatch(/json\s+│\s+GET \/json/)
  })
})
