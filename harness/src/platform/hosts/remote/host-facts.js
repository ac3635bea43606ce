#!/usr/bin/env node
// @ts-check
// Runs on a host, in its checkout of dyno, started by dyno over SSH: replies (script-reply.js) with what a run needs to know of the host
// (its environment fingerprint, the checkout's commit and lockfile, the tools it has) and, asked for them, free TCP ports on it.
import { existsSync } from 'node:fs'
import { hostname } from 'node:os'
import { environmentFingerprint } from '../../env/fingerprint.js'
import { REPO_ROOT } from '../../paths.js'
import { findExecutable, postgresBinDirs } from '../../util/find-executable.js'
import { lockfileHash, readCheckoutStamp } from './checkout-stamp.js'
import { freePort } from '../free-port.js'
import { writeReply } from './script-reply.js'

const [, , portsWanted = '0', portAddress = '127.0.0.1'] = process.argv
const stamp = readCheckoutStamp(REPO_ROOT)
const ports = []
for (let index = 0; index < Number(portsWanted); index++) ports.push(await freePort(portAddress))
const fingerprint = environmentFingerprint()
writeReply({
  hostname: hostname(),
  fingerprint: { ...fingerprint, git: stamp ? { commit: stamp.commit, dirty: false } : fingerprint.git },
  nodePath: process.execPath,
  checkout: {
    dir: REPO_ROOT,
    stamp,
    lockfileSha256: lockfileHash(REPO_ROOT),
    installed: existsSync(`${REPO_ROOT}node_modules/.modules.yaml`)
  },
  executables: {
    ...Object.fromEntries(['taskset', 'valgrind', 'redis-server', 'pnpm', 'cc'].map((name) => [name, findExecutable(name)])),
    cargo: findExecutable('cargo', [`${process.env.HOME}/.cargo/bin`]),
    postgres: postgresBinDirs()[0] ?? null
  },
  ports,
  sshClientAddress: process.env.SSH_CLIENT?.split(' ')[0] ?? null
})
