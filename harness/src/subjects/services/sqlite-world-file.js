#!/usr/bin/env node
// @ts-check
// Run by dyno on a SUT host of its own (sqlite-service.js): `create` makes and seeds the world database in a new temporary directory
// and replies where; `exists PATH` replies whether it is still there; `remove DIR` takes the directory away.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeReply } from '../../platform/hosts/remote/script-reply.js'
import { createWorldDatabase } from './sqlite-service.js'

const [, , action, target] = process.argv
if (action === 'create') {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-sqlite-'))
  const path = join(dir, 'world.sqlite')
  writeReply({ dir, path, version: createWorldDatabase(path) })
} else if (action === 'exists') {
  writeReply(existsSync(target))
} else if (action === 'remove' && target?.includes('dyno-sqlite-')) {
  rmSync(target, { recursive: true, force: true })
} else {
  process.stderr.write(
    `sqlite-world-file: create | exists PATH | remove DIR (a dyno-sqlite- directory), got ${process.argv.slice(2).join(' ')}\n`
  )
  process.exitCode = 2
}
