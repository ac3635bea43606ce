// @ts-check
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { readProcStat } from '../../src/platform/process/proc-reader.js'
import { cpusAllowed, machineCpus } from '../../src/platform/pinning/cpu-list.js'
import { pinnedSpawnArgs } from '../../src/platform/process/pinned-spawn.js'
import { resolvePinning } from '../../src/platform/pinning/resolve-pinning.js'
import { stopProcessGroup } from '../../src/platform/process/process-group.js'
import { collectLines } from '../support/child-lines.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'

const TREE = fileURLToPath(new URL('../fixtures/resources/process-tree.js', import.meta.url))
const IPC_WORKER = fileURLToPath(new URL('../fixtures/resources/ipc-worker.js', import.meta.url))
const runs = trackRuns()
const env = { ...process.env, DYNO_RUN_ID: runs.add(`test-pinning-${randomUUID()}`) }
const absent = missing('pinning')
const plan = resolvePinning({ mode: 'auto' })
const lastCpu = /** @type {number} */ (machineCpus().at(-1))

it.skipIf(absent)(`pins auto on this machine (Linux, two cores or more, taskset)${skipNote(absent)}`, () => {
  expect(plan).toMatchObject({ pinned: true, generatorCpus: [lastCpu], reason: null })
})

it.skipIf(absent)('starts the command itself on the given cpus, under the same pid and group, grandchildren included', async () => {
  const { command, args } = pinnedSpawnArgs(process.execPath, [TREE, 'leader', '0'], [lastCpu])
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'inherit'], env })
  try {
    const [, grandchild] = await collectLines(/** @type {import('node:stream').Readable} */ (child.stdout)).waitFor(/^ready (\d+)$/)
    const pid = /** @type {number} */ (child.pid)
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]).toBe(process.execPath) // taskset exec'd node
    expect(cpusAllowed(pid)).toEqual([lastCpu])
    expect(cpusAllowed(Number(grandchild))).toEqual([lastCpu])
    expect(readProcStat(Number(grandchild))?.pgid).toBe(pid)
  } finally {
    await stopProcessGroup(child, { graceMs: 2000, label: 'pinned tree' })
  }
})

it.skipIf(absent)('keeps a working IPC channel for a node child started through taskset', async () => {
  const child = spawn('taskset', ['-c', String(lastCpu), process.execPath, IPC_WORKER], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env
  })
  try {
    child.send({ type: 'ping' })
    const [reply] = await once(child, 'message')
    expect(reply).toEqual({ echo: { type: 'ping' }, pid: child.pid, cpus: String(lastCpu) })
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
  } finally {
    await stopProcessGroup(child, { graceMs: 2000, label: 'pinned IPC worker' })
  }
})

afterAll(() => runs.expectNoneLeft(expect))
