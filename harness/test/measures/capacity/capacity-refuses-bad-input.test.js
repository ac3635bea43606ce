// @ts-check
// Bad input to the capacity measure stops the command before anything starts: exit 2, a message naming the value given and what is
// allowed, and no run directory written. Run through the CLI's own main, every command line in one process (support/cli-batch.js).
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const BATCH = fileURLToPath(new URL('../../support/cli-batch.js', import.meta.url))
const DYNO = fileURLToPath(new URL('../../../bin/dyno.js', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'dyno-capacity-input-'))
const out = join(scratch, 'results')

/** @type {{ argv: string[], code: number, stderr: string }[]} */
let answers = []

const CASES = /** @type {[string, string[], string][]} */ ([
  ['an objective that does not parse', ['--slo', 'p99=10ms'],
    '`--slo` must be one or more comma-separated terms `p<percentile><=<bound><unit>`'],
  ['a percentile out of range', ['--slo', 'p50<=2ms,p100<=10ms'],
    '`p100<=10ms` names percentile 100, out of range (above 0 and below 100)'],
  ['a percentile of 0', ['--slo', 'p0<=1ms'], '`p0<=1ms` names percentile 0, out of range'],
  ['a unit missing', ['--slo', 'p99<=10'], '(`p99<=10` has no unit after its bound 10), got `p99<=10`'],
  ['a unit unknown', ['--slo', 'p99<=10min'], '`p99<=10min` has unit `min`, not one of us, ms, s'],
  ['a percentile named twice', ['--slo', 'p99<=10ms,p99<=5ms'], 'p99 is named twice'],
  ['a bound below 1 µs', ['--slo', 'p99<=0.4us'],
    '(`p99<=0.4us` has bound 0.4us, below 1 us (the finest latency dyno measures)), got `p99<=0.4us`'],
  ['a bound above 60 s', ['--slo', 'p99<=1000000000000000000000ms'],
    '(`p99<=1000000000000000000000ms` has bound 1000000000000000000000ms, above 60 s (the longest latency dyno records))'],
  ['a bound in exponent form', ['--slo', 'p99<=1e3ms'],
    '(`p99<=1e3ms` gives its bound 1e3 in exponent form, which is not taken: write it in plain decimals), got `p99<=1e3ms`'],
  ['a percentile in exponent form', ['--slo', 'p1e-7<=1ms'],
    '(`p1e-7<=1ms` gives its percentile 1e-7 in exponent form, which is not taken: write it in plain decimals), got `p1e-7<=1ms`'],
  ['a lowest step no schedule can keep', ['--min-rate', '0.00000000000000000001'],
    '`--min-rate` must be a number from 0.001, at most 1000000, got `0.00000000000000000001`'],
  ['a highest step no schedule can keep', ['--max-rate', '0.0002'],
    '`--max-rate` must be a number from 0.001, at most 1000000, got `0.0002`'],
  ['a rate ceiling below the lowest step', ['--min-rate', '500', '--max-rate', '200'],
    '`--max-rate 200` is below the lowest step `--min-rate 500`: the highest rate searched must be at least the lowest'],
  ['--rate together with capacity', ['--rate', '1000'],
    '`--rate 1000` with `--measure capacity`: capacity searches the offered rates itself; give --min-rate and --max-rate'],
  ['another measure', ['--measure', 'wall-clock'], '`--measure` must be one of capacity, got `wall-clock`'],
  ['a sweep level above 10,000 connections', ['--sweep-connections', '10,20000'],
    '`--sweep-connections` must be a whole number from 1 to 10000, or a comma-separated list of them, or `none`, got `10,20000`'],
  ['a sweep level that is no number', ['--sweep-connections', '10,many'], 'or `none`, got `10,many`']
])
const RUN_WITH_RATE = ['run', '--measure', 'capacity', '--frameworks', 'node-http', '--rate', '5000', '--out', out]

beforeAll(() => {
  const file = join(scratch, 'cases.json')
  const capacityLines = CASES.map(([, args]) => ['capacity', '--frameworks', 'node-http', ...args, '--out', out])
  writeFileSync(file, JSON.stringify([...capacityLines, RUN_WITH_RATE]))
  answers = execFileSync(process.execPath, [BATCH, file], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] })
    .trim().split('\n').map((line) => JSON.parse(line))
})

describe('dyno capacity refuses bad input', () => {
  it.each(CASES.map(([name, , says], index) => [name, index, says]))('%s: exit 2 naming it', (_, index, says) => {
    const answer = answers[Number(index)]
    expect(answer.code, answer.stderr).toBe(2)
    expect(answer.stderr).toContain('DYNO_ERR_INVALID_OPTION')
    expect(answer.stderr).toContain(says)
    expect(existsSync(out)).toBe(false)
  })

  it('refuses a sweep beyond the open-files limit the SUTs and the engine would inherit, naming the limit and how to raise it', () => {
    // The shell lowers its hard limit, as a user's login may have it (Node raises its soft limit to the hard one itself), and runs dyno.
    const answer = spawnSync('bash', ['-c', 'ulimit -n 1024 && exec "$0" "$@"', process.execPath, DYNO, 'capacity', '--frameworks',
      'node-http', '--sweep-connections', '10,100,2000', '--out', out], { encoding: 'utf8', timeout: 60_000 })
    expect(answer.status, answer.stderr).toBe(2)
    expect(answer.stderr).toContain('`--sweep-connections` reaches 2,000 connections, but a process here may hold at most 1,024 open ' +
      'files (the hard limit, `ulimit -Hn`) and needs 2,256 for them')
    expect(answer.stderr).toContain('or give levels up to 768')
    expect(existsSync(out)).toBe(false)
  })

  it('refuses --rate with `dyno run --measure capacity` too', () => {
    const answer = answers[CASES.length]
    expect(answer.code).toBe(2)
    expect(answer.stderr).toContain('`--rate 5000` with `--measure capacity`')
    expect(existsSync(out)).toBe(false)
  })
})
