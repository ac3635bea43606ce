// @ts-check
// "Is my branch slower?" for a service of one's own: a repository made here holds the example shop (Express and PostgreSQL) in two
// commits, the second of which makes its quote route do more work per request. compare-commits with --app checks both commits out,
// shares the installed dependencies the two pin alike, counts instructions per request on each, and calls the quote route regressed
// and a route it did not touch unchanged. Counts do not depend on the machine's speed.
import { cpSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'

trackRuns()
const absent = missing('valgrind', 'postgres')
const SHOP = join(REPO_ROOT, 'examples', 'shop-service')
const work = mkdtempSync(join(tmpdir(), 'dyno-service-commits-'))

/** @returns {string} a git repository of the shop in two commits, the second slower on the quote route */
function shopRepository () {
  const repo = join(work, 'shop')
  for (const entry of ['src', 'dyno.config.yaml', 'basket.json', 'package.json']) {
    cpSync(join(SHOP, entry), join(repo, entry), { recursive: true })
  }
  symlinkSync(join(SHOP, 'node_modules'), join(repo, 'node_modules'), 'dir')
  writeFileSync(join(repo, '.gitignore'), 'node_modules\n')
  const git = (/** @type {string[]} */ args) => execFileSync('git', ['-c', 'user.name=dyno', '-c', 'user.email=dyno@example.com', ...args],
    { cwd: repo, stdio: 'pipe' })
  git(['init', '-q'])
  git(['add', '-A'])
  git(['commit', '-qm', 'the shop'])
  const quote = join(repo, 'src', 'quote.js')
  const source = readFileSync(quote, 'utf8')
  const slower = source.replace('  let total = 0\n', '  let total = 0\n' +
    '  // Looks for a line that repeats another, a hundred times over: slow on purpose.\n' +
    '  for (let pass = 0; pass < 100; pass++) for (const a of lines) for (const b of lines) if (a !== b && a === b) total += 0\n')
  expect(slower).not.toBe(source)
  writeFileSync(quote, slower)
  git(['commit', '-qam', 'quotes look for repeated lines'])
  return repo
}

describe.skipIf(absent)(`compare-commits on a service of its own${skipNote(absent)}`, () => {
  it('calls the route the head commit slowed regressed by counts, and a route it left alone unchanged', async () => {
    const repo = shopRepository()
    // Two of its three scenarios: quote, which the head slowed, and product, which it left alone (category is a route of the same kind
    // as product); each scenario more is two counts more under valgrind.
    const result = await runCli(['compare-commits', 'HEAD~1', 'HEAD', '--app', repo, '--scenarios', 'quote,product',
      '--format', 'md', '--fail-on', 'regression',
      '--count-warmup', '3000', '--count-warmup-bound', '6000', '--cache-dir', join(work, 'cache'), '--out', join(work, 'results')],
    // The test's own count cache: both commits are counted here, not taken from an earlier run's counts.
    { timeoutMs: 540_000 })
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain(`head: pins the same dependencies as ${realpathSync(repo)}: its node_modules shared`)
    const verdicts = Object.fromEntries([...result.stdout.matchAll(/^\| shop \| (\S+) \|.*\| \**(\w+)\** \|$/gm)]
      .map(([, scenario, verdict]) => [scenario, verdict]))
    expect(verdicts).toEqual({ product: 'unchanged', quote: 'regressed' })
    expect(result.stderr).toMatch(/--fail-on regression: shop × quote .*regressed/)
  }, 600_000)
})
