// @ts-check
// harness/ERRORS.md is written from harness/src/platform/errors.js (`pnpm docs:write`): the committed file must be what the
// catalogue writes now, so a new code or a changed hint cannot leave the document behind, and the advice the CLI
// prints under an error is the advice the document gives.
import { readFileSync } from 'node:fs'
import { Writable } from 'node:stream'
import { expect, it } from 'vitest'
import { main } from '../../src/interface/cli/main.js'
import { ERRORS_DOC_FILE, errorsReference } from '../../src/interface/docs/errors-reference.js'
import { ERRORS } from '../../src/platform/errors.js'

it('harness/ERRORS.md is up to date (run `pnpm docs:write` after changing harness/src/platform/errors.js)', () => {
  expect(readFileSync(ERRORS_DOC_FILE, 'utf8')).toBe(errorsReference())
})

it('gives every code its exit status, what happened and one line of advice', () => {
  const text = errorsReference()
  for (const [code, { exitCode, when, hint }] of Object.entries(ERRORS)) {
    expect(when, code).toMatch(/\S/)
    expect(hint, code).toMatch(/^[^\n]+$/)
    expect(text, code).toContain(`| \`${code}\` | ${exitCode} | `)
  }
})

it('prints the documented hint under the error', async () => {
  let stderr = ''
  const sink = new Writable({ write (chunk, _encoding, done) { stderr += chunk; done() } })
  const io = { stdout: new Writable({ write (_chunk, _encoding, done) { done() } }), stderr: sink }
  const code = await main(['run', '--connections', 'abc'], io)
  expect(code).toBe(ERRORS.DYNO_ERR_INVALID_OPTION.exitCode)
  expect(stderr).toMatch(/^DYNO_ERR_INVALID_OPTION: /)
  expect(stderr).toContain(`\n  ${ERRORS.DYNO_ERR_INVALID_OPTION.hint}\n`)
})
