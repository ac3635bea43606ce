// @ts-check
// The SUT under valgrind's callgrind, started with instrumentation off so that its start-up and warm-up run
// at valgrind's uninstrumented speed and count nothing; vgdb then passes callgrind's monitor commands to every
// process of the SUT: instrumentation on, zero, and dump between request windows (a dump zeroes the counters).
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DynoError } from '../../../platform/errors.js'
import { findExecutable } from '../../../platform/util/find-executable.js'
import { parseCallgrindDump } from './callgrind-profile.js'
import { splitCollector } from './collector-split.js'
import { splitCompiler } from './compiler-split.js'
import { functionCosts } from './function-costs.js'
import { addFunctionCosts } from './function-profile.js'
import { readPerfMap } from './perf-map.js'

const run = promisify(execFile)

/** @returns {{ valgrind: string, vgdb: string } | null} valgrind and its vgdb (both in Debian's valgrind package) on PATH */
export function findCallgrind () {
  const valgrind = findExecutable('valgrind')
  const vgdb = findExecutable('vgdb')
  return valgrind && vgdb ? { valgrind, vgdb } : null
}

/**
 * How long vgdb waits for a process to take a command by itself before it makes it (through ptrace): a SUT between windows
 * sits in epoll_wait, where it takes none, and callgrind_control's default of 100 ms would be spent on every command.
 */
const VGDB_INVOKE_AFTER_MS = 1

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
 * The processes of a launch that vgdb can reach: one FIFO per process under `outDir`.
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
 * Sends one callgrind monitor command to every process of the launch and waits for each to carry it out. vgdb finds a
 * process's FIFOs by the user and host names valgrind saw, so it runs with the SUT's environment.
 * @param {{ vgdb: string, outDir: string, env: NodeJS.ProcessEnv }} target
 * @param {'instrumentation on' | 'zero' | 'dump'} command
 * @returns {Promise<number[]>} the pids it reached
 */
export async function controlAll ({ vgdb, outDir, env }, command) {
  const pids = controlledPids(outDir)
  if (pids.length === 0) {
    const holds = readdirSync(outDir).join(', ') || 'nothing'
    throw new DynoError('DYNO_ERR_LOAD_GENERATOR', `vgdb found no process of the SUT under ${outDir} (it holds: ${holds})`)
  }
  for (const pid of pids) {
    const args = [`--vgdb-prefix=${join(outDir, 'vgdb')}`, `--max-invoke-ms=${VGDB_INVOKE_AFTER_MS}`, `--pid=${pid}`, ...command.split(' ')]
    try {
      await run(vgdb, args, { env, timeout: 60_000 })
    } catch (error) {
      const said = /** @type {{ stderr?: string }} */ (error).stderr?.trim() || /** @type {Error} */ (error).message
      throw new DynoError('DYNO_ERR_LOAD_GENERATOR', `vgdb could not pass \`${command}\` to process ${pid} of the SUT: ${said}`)
    }
  }
  return pids
}

/**
 * @typedef {object} WindowDump what the processes' dumps of one window hold
 * @property {number} instructions summed over the processes
 * @property {number} files one per process
 * @property {import('./collector-split.js').CollectorSplit} split the collector's instructions and the program's, summed
 * @property {import('./compiler-split.js').CompilerSplit} compiler V8's compilers' instructions and the functions (de)optimised, summed
 * @property {Map<string, import('./function-costs.js').FunctionCost> | null} functions each function's instructions, summed over the
 *   processes (null: not asked for)
 * @property {boolean} generatedCodeNamed whether every process had a perf map to name V8's generated code by
 */

/**
 * What the dump files that appeared since `before` hold (one per process and dump).
 * @param {string} outDir @param {Set<string>} before file names present before the dump
 * @param {import('./code-layers.js').LayerContext | null} [layers] to keep each function's instructions, by layer
 * @returns {WindowDump}
 */
export function readNewDumps (outDir, before, layers = null) {
  let instructions = 0
  let files = 0
  const collections = { scavenge: 0, markCompact: 0, minorMarkCompact: 0, incrementalMarkingStarted: 0 }
  const split = { collectorInstructions: 0, readingInstructions: 0, programInstructions: 0, collections }
  const compiler = { compilerInstructions: 0, optimisations: 0, deoptimisations: 0 }
  /** @type {Map<string, import('./function-costs.js').FunctionCost> | null} */
  const functions = layers ? new Map() : null
  let generatedCodeNamed = true
  for (const name of readdirSync(outDir).filter((entry) => entry.startsWith('callgrind.out.') && !before.has(entry))) {
    const profile = parseCallgrindDump(readFileSync(join(outDir, name), 'utf8'))
    if (!profile.instructions && profile.arcs.length === 0) continue
    const own = splitCollector(profile)
    const compiled = splitCompiler(profile)
    if (functions && layers) {
      const codeNames = readPerfMap(Number(/^callgrind\.out\.(\d+)/.exec(name)?.[1]))
      generatedCodeNamed &&= codeNames !== null
      addFunctionCosts(functions, functionCosts(profile, codeNames, layers))
    }
    for (const field of /** @type {(keyof typeof compiler)[]} */ (Object.keys(compiler))) compiler[field] += compiled[field]
    instructions += profile.instructions
    files += 1
    split.collectorInstructions += own.collectorInstructions
    split.readingInstructions += own.readingInstructions
    split.programInstructions += own.programInstructions
    for (const kind of /** @type {(keyof typeof split.collections)[]} */ (Object.keys(split.collections))) {
      split.collections[kind] += own.collections[kind]
    }
  }
  return { instructions, files, split, compiler, functions, generatedCodeNamed: functions !== null && generatedCodeNamed }
}

/** @param {string} outDir @returns {Set<string>} */
export const dumpFiles = (outDir) => new Set(readdirSync(outDir).filter((entry) => entry.startsWith('callgrind.out.')))
