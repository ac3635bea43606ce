// @ts-check
// Vitest global setup: every temporary file of the suite (run outputs, compare inputs, worktrees,
// browser profiles, database clusters) and of the processes it starts goes under one directory,
// removed at the end.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup () {
  // Vitest calls a global setup once per project: the first one makes the directory.
  if (process.env.DYNO_TEST_TMPDIR) return
  const dir = mkdtempSync(join(tmpdir(), 'dyno-tests-'))
  // Like /tmp: services that drop root (initdb and postgres run as their own user) must reach their directories.
  chmodSync(dir, 0o1777)
  process.env.DYNO_TEST_TMPDIR = dir
  process.env.TMPDIR = dir
  return () => {
    rmSync(dir, { recursive: true, force: true })
    delete process.env.DYNO_TEST_TMPDIR
  }
}
