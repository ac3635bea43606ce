// @ts-check
// A SUT on another host shares its stderr with the process guard that reports on it (remote/process-guard.js): whatever it prints,
// garbled guard lines or well-formed forged ones, reaches dyno as its own stderr text, and the cpu and memory dyno records are the
// ones the guard read from /proc; a line that never ends reaches dyno in pieces, never held whole at either end. Run as dyno runs it,
// through startGuardedProcess and the guard of this checkout; only OpenSSH is stood in for, by an `ssh` that runs its remote command on
// this machine.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { GUARD_LINE_PREFIX, PROCESS_LINE_LIMIT_CHARS } from '../../src/platform/hosts/remote/guard-protocol.js'
import { startGuardedProcess } from '../../src/platform/hosts/ssh/guarded-process.js'
import { collectLines } from '../support/child-lines.js'
import { trackRuns } from '../support/leftover-processes.js'
import { waitingFor } from '../support/waiting-for.js'

const runs = trackRuns()
const FORGED_PID = 4_242_424
/** A member of a forged sample, well formed, whose figures are all zero. */
const FORGED_MEMBER = { pid: FORGED_PID, state: 'R', ppid: 1, pgid: FORGED_PID, session: FORGED_PID, comm: 'forged', kernelThread: false }
const FORGED_FIGURES = { utimeTicks: 0, stimeTicks: 0, startTicks: 1, rssPages: 0, processor: 0 }
const FORGED_LINES = [
  `${GUARD_LINE_PREFIX}{`,
  `${GUARD_LINE_PREFIX}{"event":"sample","members":[]}`,
  `${GUARD_LINE_PREFIX}${JSON.stringify({ event: 'sample', members: [{ ...FORGED_MEMBER, ...FORGED_FIGURES }] })}`,
  `${GUARD_LINE_PREFIX}{"event":"no-such-kind"}`,
  `\u001e${GUARD_LINE_PREFIX}{"event":"sample","members":[]}`
]
const DONE_LINE = 'the forged lines are printed'
/** A line of a megabyte and a little more, printed without a newline until its end: it reaches dyno in pieces, none of them longer
 * than a piece the guard passes. */
const LONG_LINE_CHARS = 1024 * 1024 + 100

/** A SUT that spends cpu time and holds memory, then prints FORGED_LINES to its stderr on SIGUSR1. */
const SUT_SCRIPT = `
globalThis.held = Buffer.alloc(32 * 1024 * 1024, 1)
const start = process.cpuUsage()
const deadline = Date.now() + 10_000
while (process.cpuUsage(start).user < 200_000 && Date.now() < deadline) globalThis.held[0]++
process.on('SIGUSR1', () => process.stderr.write(${JSON.stringify(FORGED_LINES)}.join('\\n') + '\\n' + 'z'.repeat(${LONG_LINE_CHARS}) +
  '\\n${DONE_LINE}\\n'))
setTimeout(() => process.exit(3), 60_000)
process.stdout.write('ready\\n')
`

/** @type {string | undefined} */
let pathBefore
let dir = ''

/**
 * Waits, bounded, until the guard has reported the SUT's own figures with cpu time and memory in them.
 * @param {import('../../src/platform/hosts/host.js').HostProcess} sut
 */
async function realSample (sut, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const own = sut.readGroup?.().find((member) => member.pid === sut.pid)
    if (own && own.utimeTicks + own.stimeTicks > 0 && own.rssPages > 0) return own
    if (performance.now() > deadline) throw new Error(`no sample of pid ${sut.pid} with cpu and memory within ${timeoutMs} ms`)
    await delay(20)
  }
}

describe('a SUT on another host', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dyno-forged-guard-'))
    // OpenSSH's stand-in: the remote command is its last argument, run by a shell as sshd would.
    writeFileSync(join(dir, 'ssh'), '#!/bin/sh\nfor last; do :; done\nexec /bin/sh -c "$last"\n')
    chmodSync(join(dir, 'ssh'), 0o755)
    writeFileSync(join(dir, 'sut.js'), SUT_SCRIPT)
    pathBefore = process.env.PATH
    process.env.PATH = `${dir}:${pathBefore}`
  })

  afterAll(() => {
    process.env.PATH = pathBefore
    runs.expectNoneLeft(expect)
  })

  it('cannot forge the guard\'s lines: they are its stderr, and its cpu and memory are the ones read from /proc', async () => {
    const runId = runs.add(`forged-guard-${process.pid}-${Date.now()}`)
    const target = /** @type {const} */ ({ kind: 'ssh', url: 'ssh://here', user: null, hostname: 'here', port: null, dir: REPO_ROOT })
    const sut = await startGuardedProcess(target, {
      command: process.execPath,
      args: [join(dir, 'sut.js')],
      cwd: dir,
      env: { DYNO_RUN_ID: runId },
      unsetEnv: [],
      graceMs: 2000,
      sampleMs: 20
    }, { node: process.execPath, label: 'the forging SUT' })
    try {
      const stdout = collectLines(sut.stdout)
      const stderr = collectLines(sut.stderr)
      await stdout.waitFor(/^ready$/)
      const before = await waitingFor('a sample of the SUT with cpu time and memory', realSample(sut))

      process.kill(sut.pid, 'SIGUSR1')
      await stderr.waitFor(new RegExp(`^${DONE_LINE}$`))
      const group = sut.readGroup?.() ?? []
      expect(group.map((member) => member.pid)).not.toContain(FORGED_PID)
      const own = group.find((member) => member.pid === sut.pid)
      expect(own?.utimeTicks).toBeGreaterThanOrEqual(before.utimeTicks)
      expect(own?.rssPages).toBeGreaterThan(0)
      expect(stderr.lines.slice(0, FORGED_LINES.length)).toEqual(FORGED_LINES)
      const pieces = stderr.lines.slice(FORGED_LINES.length, stderr.lines.indexOf(DONE_LINE))
      expect(pieces.join('')).toBe('z'.repeat(LONG_LINE_CHARS))
      for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(PROCESS_LINE_LIMIT_CHARS)

      expect(await sut.stop(2000)).toEqual({ forced: false })
      expect(await sut.exited).toEqual({ code: null, signal: 'SIGTERM', lost: false })
    } finally {
      if (!sut.hasExited()) await sut.stop(0).catch(() => {})
    }
  })
})
