#!/usr/bin/env node
// @ts-check
// Rewrites the documents generated from the code: docs/cli.md (options and profiles) and harness/ERRORS.md (the
// error catalogue). Tests fail when either committed file differs from what this writes.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliReference } from '../src/docs/cli-reference.js'
import { ERRORS_DOC_FILE, errorsReference } from '../src/docs/errors-reference.js'
import { REPO_ROOT } from '../src/paths.js'

for (const [file, text] of [[join(REPO_ROOT, 'docs', 'cli.md'), cliReference()], [ERRORS_DOC_FILE, errorsReference()]]) {
  writeFileSync(file, text)
  process.stdout.write(`${file}\n`)
}
