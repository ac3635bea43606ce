// @ts-check
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { ERRORS } from '../src/errors.js'

const documentation = readFileSync(new URL('../ERRORS.md', import.meta.url), 'utf8')

it('documents every error code in ERRORS.md with its exit status', () => {
  for (const [code, { exitCode }] of Object.entries(ERRORS)) {
    expect(documentation, code).toMatch(new RegExp(`\\| \`${code}\` \\| ${exitCode} \\|`))
  }
})

it('documents no code that the catalogue lacks', () => {
  const documented = [...documentation.matchAll(/`(DYNO_ERR_[A-Z_]+)`/g)].map((match) => match[1])
  expect(documented.filter((code) => !(code in ERRORS))).toEqual([])
})
