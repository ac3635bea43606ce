#!/usr/bin/env node
// @ts-check
// Run by dyno on a SUT host of its own (postgres-service.js): `init ADDRESS...` makes a throwaway cluster that trusts connections from
// those addresses (dyno's machine, which seeds it and counts its queries; the host's own, which its SUTs come from) and prints it;
// `remove DIR` takes it away.
import { rmSync } from 'node:fs'
import { isDynoError } from '../errors.js'
import { initCluster } from './postgres-service.js'

const [, , action, target, ...more] = process.argv
try {
  if (action === 'init' && target) {
    const trustFrom = [target, ...more].map((address) => `${address}/${address.includes(':') ? 128 : 32}`)
    process.stdout.write(`${JSON.stringify(initCluster(process.env, { trustFrom }))}\n`)
  } else if (action === 'remove' && target?.includes('dyno-postgres-')) {
    rmSync(target, { recursive: true, force: true })
  } else {
    process.stderr.write(`postgres-cluster: init ADDRESS... | remove DIR (a dyno-postgres- directory), got ${process.argv.slice(2).join(' ')}\n`)
    process.exitCode = 2
  }
} catch (error) {
  process.stderr.write(`${isDynoError(error) ? `${error.code}: ` : ''}${/** @type {Error} */ (error).message}\n`)
  process.exitCode = 1
}
