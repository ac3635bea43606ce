// @ts-check
// Each step the site lists links to a page explaining it by layer and function, where both counts of the step kept their functions;
// a step whose counts did not (counted by a dyno from before) says so instead of linking. The records published keep no list.
// Real counts (test/fixtures/timeline-data: express 4.20 to 5.1, json), two of them given the functions of two-function-profiles.js.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { writeSite } from '../../src/history/site/write-site.js'
import { BASELINE, CANDIDATE, HOSTILE_NAME } from '../support/two-function-profiles.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data', 'records')
const work = mkdtempSync(join(tmpdir(), 'dyno-site-explain-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** @param {any} record @param {import('../support/two-function-profiles.js').FunctionProfile} profile */
const withFunctions = (record, profile) => ({
  ...record,
  functions: {
    layers: profile.layers,
    windowLayers: record.measures.programPerWindow.map(() => profile.layers),
    keptAbovePerRequest: profile.keptAbovePerRequest,
    omitted: profile.omitted,
    generatedCodeNamed: true,
    functions: profile.functions
  }
})

it('links the step from express 4 to 5 on node@20 to its explanation, and says "not kept" for the node@22 one', () => {
  const records = readdirSync(FIXTURE).map((name) => JSON.parse(readFileSync(join(FIXTURE, name), 'utf8')))
  const on20 = (/** @type {string} */ release) => records.find((record) => record.key.runtime === 'node@20' &&
    record.key.release === release && record.key.scenario === 'json')
  const from = on20('4.22.3')
  const to = on20('5.0.1')
  const given = records.map((record) => record === from
    ? withFunctions(record, BASELINE)
    : record === to
      ? withFunctions(record, CANDIDATE)
      : record)
  const out = join(work, 'site')
  writeSite(out, { records: given, suiteHtml: null })

  const page = join(out, 'explain', `${from.id}-${to.id}.html`)
  expect(existsSync(page)).toBe(true)
  const explanation = readFileSync(page, 'utf8')
  expect(explanation).toContain('express@4.22.3 on node@20 × json → express@5.0.1 on node@20 × json')
  expect(explanation).toContain('<svg')
  expect(explanation).not.toContain(HOSTILE_NAME)
  expect(readdirSync(join(out, 'explain'))).toEqual([`${from.id}-${to.id}.html`])

  const pages = readdirSync(out).filter((name) => name.endsWith('.html')).map((name) => readFileSync(join(out, name), 'utf8'))
  const frameworkPage = String(pages.find((html) => html.includes('Steps along its releases')))
  expect(frameworkPage).toContain(`<a href="explain/${from.id}-${to.id}.html">by function and layer</a>`)
  expect(frameworkPage).toMatch(/<span title="[^"]*">not kept<\/span>/)

  const published = JSON.parse(readFileSync(join(out, 'records', `${to.id}.json`), 'utf8'))
  expect(published.functions.layers).toEqual(CANDIDATE.layers)
  expect(published.functions.functions).toBeUndefined()
})
