// @ts-check
// compare-versions --app by counts: two checkouts of a dependency of the service (ms, as a fork would be worked on), identical but for
// a loop the second runs on every call, each installed into its own copy of the service and counted on the service's scenario. The
// second is called regressed by instructions per request, whatever the machine's speed; where valgrind is missing the test skips,
// saying so (under CI=true it fails).
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { trackRuns } from '../../support/leftover-processes.js'
import { missing, skipNote } from '../../support/needs.js'
import { runCli } from '../../support/run-cli.js'

trackRuns()
const absent = missing('valgrind')
const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/timed-service', import.meta.url))

/**
 * ms as a checkout of it: what the service asks of it (`2h` read, 90,000 ms said), after `spins` turns of a loop.
 * @param {string} dir @param {number} spins
 */
function msCheckout (dir, spins) {
  mkdirSync(dir)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ms', version: '2.1.3-fork.1', main: 'index.js' }))
  writeFileSync(join(dir, 'index.js'), [
    'const UNITS = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 }',
    'module.exports = function ms (value) {',
    '  let spun = 0',
    `  for (let turn = 0; turn < ${spins}; turn++) spun += turn % 7`,
    '  if (spun < 0) return null',
    "  if (typeof value === 'number') return value >= 60000 ? Math.round(value / 60000) + 'm' : value + 'ms'",
    '  const [, amount, unit] = /^(\\d+)(ms|s|m|h|d)$/.exec(value) ?? []',
    '  return amount === undefined ? undefined : Number(amount) * UNITS[unit]',
    '}'
  ].join('\n'))
}

describe.skipIf(absent)(`compare-versions --app by counts${skipNote(absent)}`, () => {
  it('calls the checkout of a dependency that does more on every call regressed, by instructions per request',
    async () => {
      const work = mkdtempSync(join(tmpdir(), 'dyno-app-counts-'))
      const app = join(work, 'timed-service')
      cpSync(FIXTURE, app, { recursive: true })
      msCheckout(join(work, 'ms-plain'), 0)
      msCheckout(join(work, 'ms-spinning'), 2_000)
      const result = await runCli([
        'compare-versions', '--app', app, `ms@path:${join(work, 'ms-plain')}`, `ms@path:${join(work, 'ms-spinning')}`,
        '--measure', 'instructions', '--format', 'md', '--cache-dir', join(work, 'cache'), '--out', join(work, 'results')
      ], { timeoutMs: 600_000 })
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toMatch(/^Baseline `timed \(ms@path:ms-plain\)` against candidate `timed \(ms@path:ms-spinning\)`/m)
      const row = /^\| timed \| timeout \|.*$/m.exec(result.stdout)?.[0] ?? ''
      expect(row, result.stdout).toMatch(/\| \*\*regressed\*\* \|$/)
      // 2,000 turns of the loop, twice a request, are tens of thousands of instructions over the service's sixty thousand.
      const [base, candidate] = [...row.matchAll(/\| ([\d,]+) (?=\|)/g)].slice(0, 2).map((match) => Number(match[1].replaceAll(',', '')))
      expect(candidate / base).toBeGreaterThan(1.3)
    }, 660_000)
})
