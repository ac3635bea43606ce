// @ts-check
// `dyno explain --format html` writes one page to stdout, offline and without a script, whose flame graph holds every function both
// counts kept, read back from the result files: those within the noise and those beyond `--top` too, which the tables leave out.
// The counts are made by hand from a committed run's result file and checked against the schema; none is counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { BASELINE, CANDIDATE, countRecord } from '../support/two-function-profiles.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-explain-html-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** @param {import('../support/two-function-profiles.js').FunctionProfile} profile @param {string} name @returns {string} its path */
function countFile (profile, name) {
  const record = countRecord(profile)
  expect(schemaErrors('result', record)).toEqual([])
  const path = join(work, name)
  writeFileSync(path, JSON.stringify(record))
  return path
}

it('writes the page with every kept function of both counts in its flame graph', async () => {
  const explained = await runCli(['explain', countFile(BASELINE, 'baseline.json'), countFile(CANDIDATE, 'candidate.json'),
    '--format', 'html', '--top', '1'])
  expect(explained.stderr).toBe('')
  expect(explained.code).toBe(0)
  const page = explained.stdout
  expect(page.startsWith('<!doctype html>')).toBe(true)
  expect(page).not.toMatch(/<script|<link|src="http/i)
  const tooltips = [...page.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1])
  // json moved within the noise and _storeHeader not at all: no table lists them, the flame graph has them.
  for (const name of ['send', 'json', '_storeHeader', 'fresh', 'etag']) {
    expect(tooltips.some((tooltip) => tooltip.startsWith(`${name}\n`)), name).toBe(true)
  }
  expect(page).not.toMatch(/<td>json<\/td>|<td>_storeHeader<\/td>/)
  expect(page).toContain('<td>send</td>')
})
