// @ts-check
// The SUT under valgrind's callgrind, started with instrumentation off so that its start-up and warm-up run
// at valgrind's uninstrumented speed and count nothing; callgrind_control then switches counting on, zeroes
// and dumps the counters of every process of the SUT between request windows.
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DynoError } from '../errors.js'
import { findExecutable } from '../util/find-executable.js'

const run = promisify(execFile)

/** @returns {{ valgrind: string, control: string } | null} valgrind and callgrind_control on PATH */
export function findCallgrind () {
  const valgrind = findExecutable('valgrind')
  const control = findExecutable('callgrind_control')
  return valgrind && control ? { valgrind, control } : null
}

/**
 * The launch of a SUT under callgrind, counting nothing until switched on; every process of it
 * (`--trace-children`) can be controlled through the FIFOs valgrind makes under `outDir`.
 * @param {string} valgrind @param {{ command: string, args: string[] }} launch @param {string} outDir
 * @returns {{ command: string, args: string[] }}
 */
export function underCallgrind (valgrind, launch, outDir) {
  return {
    command: valgrind,
    args: ['--tool=callgrind', '--instr-atstart=no', '--trace-children=yes', '--quiet', `--vgdb-prefix=${join(outDir, 'vgdb')}`,
      `--callgrind-out-file=${join(outDir, 'callgrind.out.%p')}`, launch.command, ...launch.args]
  }
}

/**
 * The processes of a launch that callgrind_control can reach: one FIFO per process under `outDir`.
 * @param {string} outDir @returns {number[]}
 */
export function controlledPids (outDir) {
  const pids = new Set()
  for (const name of readdirSync(outDir)) {
    const match = /^vgdb-from-vgdb-to-(\d+)-/.exec(name)
    if (match) pids.add(Number(match[1]))
  }
  return [...pids].sort((a, b) => a - b)
}

/**
 * Sends one callgrind_control action to every process of the launch and waits for each to acknowledge it.
 * vgdb finds a process's FIFOs by the user and host names valgrind saw, so it runs with the SUT's environment.
 * @param {{ control: string, outDir: string, env: NodeJS.ProcessEnv }} target
 * @param {string[]} action e.g. ['--instr=on'], ['--zero'], ['--dump']
 * @returns {Promise<number[]>} the pids it reached
 */
export async function controlAll ({ control, outDir, env }, action) {
  const pids = controlledPids(outDir)
  if (pids.length === 0) {
    const holds = readdirSync(outDir).join(', ') || 'nothing'
    throw new DynoError('DYNO_ERR_LOAD_GENERATOR', `callgrind_control found no process of the SUT under ${outDir} (it holds: ${holds})`)
  }
  for (const pid of pids) {
    const { stdout } = await run(control, [`--vgdb-prefix=${join(outDir, 'vgdb')}`, ...action, String(pid)], { env, timeout: 60_000 })
    if (/No active callgrind runs/.test(stdout)) {
      throw new DynoError('DYNO_ERR_LOAD_GENERATOR', `callgrind_control could not reach process ${pid} of the SUT: ${stdout.trim()}`)
    }
  }
  return pids
}

/**
 * The instructions in the dump files that appeared since `before` (one per process and dump).
 * @param {string} outDir @param {Set<string>} before file names present before the dump
 * @returns {{ instructions: number, files: number }}
 */
export function readNewDumps (outDir, before) {
  let instructions = 0
  let files = 0
  for (const name of readdirSync(outDir).filter((entry) => entry.startsWith('callgrind.out.') && !before.has(entry))) {
    const total = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(join(outDir, name), 'utf8'))
    if (!total) continue
    instructions += Number(total[1])
    files += 1
  }
  return { instructions, files }
}

/** @param {string} outDir @returns {Set<string>} */
export const dumpFiles = (outDir) => new Set(readdirSync(outDir).filter((entry) => entry.startsWith('callgrind.out.')))
