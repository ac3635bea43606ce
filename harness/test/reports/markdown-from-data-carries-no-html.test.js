// @ts-check
// report.md, the compare markdown and the job summaries built from them are rendered where markdown may carry HTML (GitHub).
// A framework's label, its version or a failure's reason holding `<script>` or `<img onerror=…>` comes out as text: every
// `&`, `<` and `>` taken from data is an entity, while dyno's own blockquotes and code spans stay as they are.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { COMPARE_FORMATTERS } from '../../src/reports/compare/formats/index.js'
import { markdownReport } from '../../src/reports/report/markdown-report.js'
import { readRun } from '../../src/records/read-run.js'
import { inertMarkdown } from '../../src/platform/util/inert-markdown.js'
import { copyOfRun, FOUR_REPEATS } from '../support/compare-inputs.js'
import { writtenIndex } from '../support/written-run.js'

const SCRIPT = '<script>alert(1)</script>'
const IMAGE = '<img src=x onerror=alert(2)>'

/** A copy of a committed run whose first result carries HTML in its label and version, and whose last failed with HTML in its reason. */
function hostileRun () {
  const dir = copyOfRun(FOUR_REPEATS)
  const index = writtenIndex(dir)
  const files = index.results.map((/** @type {{ file: string }} */ entry) => join(dir, entry.file))
  for (const [position, path] of files.entries()) {
    const record = JSON.parse(readFileSync(path, 'utf8'))
    record.sut.label = `node-http ${SCRIPT}`
    record.sut.frameworkVersion = `1.0.0 & ${IMAGE}`
    if (position === files.length - 1) {
      Object.assign(record, { status: 'failed', reason: `the SUT said ${IMAGE} & left`, errorCode: 'DYNO_ERR_SUT_EXITED' })
    }
    writeFileSync(path, JSON.stringify(record))
  }
  return dir
}

describe('markdown from data', () => {
  it('writes HTML from a result as text in report.md', () => {
    const markdown = markdownReport(readRun(hostileRun()))
    expect(markdown).not.toMatch(/<script|<img/i)
    expect(markdown).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(markdown).toContain('1.0.0 &amp; &lt;img src=x onerror=alert(2)&gt;')
  })

  it('writes HTML from a result as text in the compare markdown', () => {
    const comparison = compareRuns([hostileRun()], [hostileRun()], { thresholdPercent: null, paired: false })
    const markdown = COMPARE_FORMATTERS.md(comparison)
    expect(markdown).not.toMatch(/<script|<img/i)
    expect(markdown).toContain('&lt;img src=x onerror=alert(2)&gt; &amp; left')
  })

  it('keeps dyno\'s own blockquotes and what stands in code spans', () => {
    expect(inertMarkdown('> a note: p < 0.05 & `a <b> & c` then <i>')).toBe('> a note: p &lt; 0.05 &amp; `a <b> & c` then &lt;i&gt;')
    expect(inertMarkdown('| x | ``<script>`` |\n>> nested > quote')).toBe('| x | ``<script>`` |\n>> nested &gt; quote')
  })
})
