// @ts-check
// Vitest global setup: every temporary file of the suite (run outputs, compare inputs, worktrees,
// browser profiles) and of the processes it starts goes under one directory, removed at the end.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-tests-'))
  process.env.TMPDIR = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
