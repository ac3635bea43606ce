// @ts-check
// `--streams` out of its range, more streams than the engine keeps, and a protocol scenario on an engine that does not speak its
// protocol: each is exit 2 before anything runs, naming the value (or the engine and the scenario with its protocol) and what is
// allowed, and no run directory is written.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, it } from 'vitest'
import { runCli } from '../support/run-cli.js'

// The cases run at once, each with an --out of its own: a run checks that it can write to --out (a file it removes at once), and
// another case reading a shared one could see that file.
const outs = /** @type {string[]} */ ([])
afterAll(() => { for (const out of outs) rmSync(out, { recursive: true, force: true }) })

it.concurrent.for(/** @type {[string[], string][]} */ ([
  [['--streams', '0'], '`--streams` must be a whole number from 1 to 10000, got `0`'],
  [['--streams', '100000'], '`--streams` must be a whole number from 1 to 10000, got `100000`'],
  [['--streams', 'many'], '`--streams` must be a whole number from 1 to 10000, got `many`'],
  [['--scenarios', 'h2-json', '--engine', 'autocannon', '--streams', '8'],
    '`--engine autocannon` speaks http1; it cannot load h2-json (protocol h2): give `--engine native`, or leave it out of `--scenarios`'],
  [['--scenarios', 'json,ws-echo,tls-json', '--engine', 'wrk'],
    '`--engine wrk` speaks http1, tls; it cannot load ws-echo (protocol ws): give `--engine native`, or leave it out of `--scenarios`'],
  [['--scenarios', 'h2c-json', '--engine', 'autocannon'], 'it cannot load h2c-json (protocol h2c)'],
  [['--scenarios', 'json', '--engine', 'autocannon', '--streams', '4'],
    '`--streams 4`: autocannon keeps one request in flight per connection; engines that keep 4: native (up to 10000)']
]))('refuses %j: exit 2, DYNO_ERR_INVALID_OPTION naming it', async ([args, message], { expect }) => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-refused-'))
  outs.push(out)
  const result = await runCli(['run', '--frameworks', 'node-http', '--out', out, ...args])
  expect(result.code, result.stderr).toBe(2)
  expect(readdirSync(out)).toEqual([])
  expect(result.stderr).toContain('DYNO_ERR_INVALID_OPTION')
  expect(result.stderr).toContain(message)
})
