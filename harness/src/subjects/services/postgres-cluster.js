#!/usr/bin/env node
// @ts-check
// Run by dyno on a SUT host of its own (postgres-service.js): `init ADDRESS...` makes a throwaway cluster that lets in, with the
// run's password (read from stdin, never the command line), connections from those addresses (dyno's machine, which seeds it and
// counts its queries; the host's own, which its SUTs come from) and replies with it; `remove DIR` takes it away.
import { rmSync } from 'node:fs'
import { isDynoError } from '../../platform/errors.js'
import { writeReply } from '../../platform/hosts/remote/script-reply.js'
import { initCluster } from './postgres-service.js'

const [, , action, target, ...more] = process.argv
try {
  if (action === 'init' && target) {
    const allowFrom = [target, ...more].map((address) => `${address}/${address.includes(':') ? 128 : 32}`)
    let password = ''
    for await (const chunk of process.stdin) password += chunk
    if (!/^[0-9a-f]{16,}$/.test(password.trim())) throw new Error('no password on stdin: dyno sends the run\'s password there')
    writeReply(initCluster(process.env, { allowFrom, password: password.trim() }))
  } else if (action === 'remove' && target?.includes('dyno-postgres-')) {
    rmSync(target, { recursive: true, force: true })
  } else {
    process.stderr.write(
      `postgres-cluster: init ADDRESS... | remove DIR (a dyno-postgres- directory), got ${process.argv.slice(2).join(' ')}\n`
    )
    process.exitCode = 2
  }
} catch (error) {
  process.stderr.write(`${isDynoError(error) ? `${error.code}: ` : ''}${/** @type {Error} */ (error).message}\n`)
  process.exitCode = 1
}
