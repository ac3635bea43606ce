// @ts-check
// "Is my branch slower?" for a service of one's own: a repository made here holds the example shop (Express and PostgreSQL) in two
// commits, the second of which makes its quote route do more work per request. compare-commits with --app checks both commits out,
// shares the installed dependencies the two pin alike, counts instructions per request on each, and calls the quote route regressed
// and a route it did not touch unchanged. Counts do not depend on the machine's speed.
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { shopRepository } from '../support/shop-repository.js'

trackRuns()
const absent = missing('valgrind', 'postgres')
const work = mkdtempSync(join(tmpdir(), 'dyno-service-commits-'))

/** @returns {string} a git repository of the shop in two commits, the second slower on the quote route */
function slowerShop () {
  return shopRepository({
    repo: join(work, 'shop'),
    message: 'quotes look for repeated lines',
    change: (service) => {
      const quote = join(service, 'src', 'quote.js')
      const source = readFileSync(quote, 'utf8')
      const slower = source.replace('  let total = 0\n', '  let total = 0\n' +
        '  // Looks for a line that repeats another, a hundred times over: slow on purpose.\n' +
        '  for (let pass = 0; pass < 100; pass++) for (const a of lines) for (const b of lines) if (a !== b && a === b) total += 0\n')
      expect(slower).not.toBe(source)
      writeFileSync(quote, slower)
    }
  })
}

describe.skipIf(absent)(`compare-commits on a service of its own${skipNote(absent)}`, () => {
  it('calls the route the head commit slowed regressed by counts, and a route it left alone unchanged', async () => {
    const repo = slowerShop()
    // Two of its three scenarios: quote, which the head slowed, and product, which it left alone (category is a route of the same kind
    // as product); each scenario more is two counts more under valgrind.
    const result = await runCli(['compare-commits', 'HEAD~1', 'HEAD', '--app', repo, '--scenarios', 'quote,product',
      '--format', 'md', '--fail-on', 'regression', '--threshold', '2',
      '--count-warmup', '3000', '--count-warmup-bound', '6000', '--cache-dir', join(work, 'cache'), '--out', join(work, 'results')],
    // The test's own count cache: both commits are counted here, not taken from an earlier run's counts.
    // A threshold of 2 %, given: the head's quote costs 6.1–6.2 % more (three times the threshold), while the routes it left alone
    // moved by 0.1–0.3 % in four comparisons (docs/development.md), close under the floor of 0.5 % a row's own spread would otherwise
    // set. So the verdict rests on an effect twenty times the noise, and an untouched route's count cannot cross the line by chance.
    { timeoutMs: 1_380_000 })
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain(`head: pins the same dependencies as ${realpathSync(repo)}: its node_modules shared`)
    const verdicts = Object.fromEntries([...result.stdout.matchAll(/^\| shop \| (\S+) \|.*\| \**(\w+)\** \|$/gm)]
      .map(([, scenario, verdict]) => [scenario, verdict]))
    expect(verdicts).toEqual({ product: 'unchanged', quote: 'regressed' })
    expect(result.stderr).toMatch(/--fail-on regression: shop × quote .*regressed/)
  }, 1_440_000)
})
