#!/usr/bin/env node
// @ts-check
// Rewrites the documents generated from the code: docs/cli.md (options and profiles), harness/ERRORS.md (the
// error catalogue), and the versions blocks of packages/*/README.md and docs/suts.md (each SUT's pins, from its
// manifest; only the block's content is replaced). Tests fail when a committed file differs from what this writes.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliReference } from '../src/interface/docs/cli-reference.js'
import { ERRORS_DOC_FILE, errorsReference } from '../src/interface/docs/errors-reference.js'
import { writtenSutDocs } from '../src/interface/docs/sut-versions.js'
import { REPO_ROOT } from '../src/platform/paths.js'

const documents = [
  { file: join(REPO_ROOT, 'docs', 'cli.md'), text: cliReference() },
  { file: ERRORS_DOC_FILE, text: errorsReference() },
  // All read (and checked for their blocks) before any is written.
  ...writtenSutDocs()
]
for (const { file, text } of documents) {
  writeFileSync(file, text)
  process.stdout.write(`${file}\n`)
}
