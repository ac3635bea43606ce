// @ts-check
// `dyno explain --format html` (explain-html.js) puts names from the counts (functions, files, packages) into tables, the flame graph's
// labels and its tooltips: each only escaped, so that a name like markup stays text. The page runs no script.
import { expect, it } from 'vitest'
import { explainChange } from '../../src/reports/explain/explain-change.js'
import { explanationsHtml } from '../../src/reports/explain/explain-html.js'
import { shownName } from '../../src/reports/explain/explain-text.js'
import { escapeHtml } from '../../src/platform/text/html-text.js'
import { BASELINE, CANDIDATE, countOf, HOSTILE_FILE, HOSTILE_NAME, HOSTILE_PACKAGE } from '../support/two-function-profiles.js'

const explanation = explainChange(countOf(BASELINE), countOf(CANDIDATE), { top: 10 })
const page = explanationsHtml([explanation])

/** @param {RegExp} pattern @returns {string[]} the first group of every match */
const every = (pattern) => [...page.matchAll(pattern)].map((match) => match[1])

it('holds the hostile names only escaped, and no script', () => {
  for (const raw of ['<script', '<img', '"onload=', '"><img']) expect(page).not.toContain(raw)
  expect(page).not.toMatch(/<script/i)
  // No element has an event handler: data's ` onerror=` stays text between tags.
  expect(every(/(<[a-z][^>]*>)/gi).filter((tag) => /\son\w+=/i.test(tag))).toEqual([])
})

it('shows them escaped in the tables, the tooltips, the labels and the attributes\' neighbours', () => {
  const cells = every(/<td[^>]*>([^<]*)<\/td>/g)
  // The grown function is beyond the noise: the tables list it (its name up to its argument list, as a C++ name is shown), its file
  // beside it.
  expect(shownName(HOSTILE_NAME)).toBe('<script>alert')
  expect(cells).toContain(escapeHtml(shownName(HOSTILE_NAME)))
  expect(cells).toContain(escapeHtml(`${HOSTILE_FILE}:10`))
  const tooltips = every(/<title>([^<]*)<\/title>/g)
  expect(tooltips.some((tooltip) => tooltip.startsWith(`${escapeHtml(HOSTILE_NAME)}\n${escapeHtml(HOSTILE_FILE)}:10\n`))).toBe(true)
  // The package's box, and the package on the line of its function's.
  expect(tooltips.some((tooltip) => tooltip.startsWith(`${escapeHtml(HOSTILE_PACKAGE)}\na package in `))).toBe(true)
  expect(tooltips.some((tooltip) => tooltip.startsWith(`parse\nx/index.js:10\n${escapeHtml(HOSTILE_PACKAGE)}, `))).toBe(true)
  // Its box is wide enough for a label: the label is cut from the name, then escaped.
  const labels = every(/<text[^>]*>([^<]*)<\/text>/g)
  expect(labels.some((label) => label.startsWith(escapeHtml('<script>alert')))).toBe(true)
})
