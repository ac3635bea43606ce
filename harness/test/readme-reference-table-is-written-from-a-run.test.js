// @ts-check
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { PACKAGES_DIR, REPO_ROOT } from '../src/paths.js'
import { REFERENCE_END, REFERENCE_START } from '../src/report/reference-table.js'
import { loadSut } from '../src/suts/discover-suts.js'
import { formatInteger } from '../src/ui/format.js'
import { fixtureSut } from './support/fixture-suts.js'
import { trackRuns } from './support/leftover-processes.js'
import { runInTempDir } from './support/run-fixture.js'

const runs = trackRuns()

it('replaces the README block with the run\'s medians, its environment, and the status of what was not measured', async () => {
  const { runDir, aggregates, runId } = await runInTempDir({
    runs,
    suts: [loadSut(`${PACKAGES_DIR}node-http`), fixtureSut('skipped-here')],
    scenarios: ['plaintext', 'json'],
    load: { durationSec: 0.5 }
  })
  const readme = join(mkdtempSync(join(tmpdir(), 'dyno-readme-')), 'README.md')
  writeFileSync(readme, `# title\n\nbefore\n\n${REFERENCE_START}\nstale\n${REFERENCE_END}\n\nafter\n`)
  execFileSync(process.execPath, [join(REPO_ROOT, 'harness/bin/readme-reference.js'), runDir, readme])
  const written = readFileSync(readme, 'utf8')
  expect(written.startsWith('# title\n\nbefore\n\n')).toBe(true)
  expect(written.endsWith(`${REFERENCE_END}\n\nafter\n`)).toBe(true)
  expect(written).not.toContain('stale')
  expect(written).toContain(`Run \`${runId}\`: `)
  expect(written).toContain(`Node ${process.version}`)
  const median = (/** @type {string} */ scenario) => aggregates.find((entry) => entry.sut === 'node-http' && entry.scenario === scenario)?.requestsPerSec.median
  const row = written.split('\n').find((line) => line.startsWith('| node-http |'))
  expect(row).toMatch(new RegExp(`^\\| node-http \\| ${process.versions.node} \\| ${formatInteger(median('plaintext'))}( †)? \\| ` +
    `${formatInteger(median('json'))}( †)? \\|$`))
  expect(written).toContain(`| fixture-skipped-here | ${process.versions.node} | skipped | skipped |`)
}, 60_000)

it('refuses a README without the markers and says which lines it needs', () => {
  const readme = join(mkdtempSync(join(tmpdir(), 'dyno-readme-')), 'README.md')
  writeFileSync(readme, '# no markers\n')
  expect(() => execFileSync(process.execPath, [join(REPO_ROOT, 'harness/bin/readme-reference.js'), join(REPO_ROOT, 'results'), readme], { stdio: 'pipe' }))
    .toThrow(/README.md has no reference block: it needs the line <!-- dyno:reference:start/)
})

it('keeps the project README\'s reference block in the written form', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
  const block = readme.slice(readme.indexOf(REFERENCE_START), readme.indexOf(REFERENCE_END))
  expect(block).toMatch(/Run `\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{6}`: /)
  expect(block).toMatch(/\| framework \| version \| /)
})

afterAll(() => runs.expectNoneLeft(expect))
