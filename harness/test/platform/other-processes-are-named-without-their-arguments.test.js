// @ts-check
// The interference census names another process by what identifies it: its pid, its executable's name, its user when it is not the
// one dyno runs as. Its arguments are read only when a run asks for them (`--census-args on`), and then masked: a sleeping process
// carrying each form of secret on its command line is named `node` without its arguments, and with them, each secret masked.
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { processIdentity } from '../../src/platform/resources/process-identity.js'
import { SECRET_FORMS, startCarrying, stopAll } from '../support/secret-command-lines.js'

/** @type {number[]} */
const startedPids = []
afterAll(async () => {
  expect(await stopAll(startedPids)).toEqual([])
})

/** @param {number} pid */
function started (pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('\0--\0')
  } catch {
    return false
  }
}

/** @param {number} pid */
async function untilStarted (pid) {
  // The shell's child execs node. Its executable is node a moment before its new command line can be read (the kernel sets the
  // one, then the other), so it has started once both are: named node, and `--` in its command line.
  for (let tries = 0; tries < 250 && !(processIdentity(pid, { args: false }).name === 'node' && started(pid)); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return pid
}

describe('a process beside dyno', () => {
  it.each(SECRET_FORMS)(
    'carrying $form is named by its executable, and by its arguments only when asked, masked',
    async ({ argv, secret }) => {
      const pid = await untilStarted(await startCarrying(argv, { busy: false }))
      startedPids.push(pid)
      expect(processIdentity(pid, { args: false })).toEqual({ name: 'node', user: null })
      const named = processIdentity(pid, { args: true })
      expect(named.args).toContain(`-- ${argv[0]}`)
      expect(named.args).toContain('***')
      expect(named.args).not.toContain(secret)
    }
  )

  it.runIf(process.getuid?.() === 0)('of another user is named with that user (nobody, uid 65534)', async () => {
    const pid = await untilStarted(await startCarrying(['sleeping'], { busy: false, uid: 65534 }))
    startedPids.push(pid)
    expect(processIdentity(pid, { args: false })).toEqual({ name: 'node', user: 'nobody' })
  })
})
