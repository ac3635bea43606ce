// @ts-check
// The SUT under valgrind's cachegrind, counting the instructions its whole process tree executes (no cache
// simulation: only the count), and the count read back from the files cachegrind writes when each process ends.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { findExecutable } from '../services/find-executable.js'

/** @returns {string | null} valgrind on PATH */
export function findValgrind () {
  return findExecutable('valgrind')
}

/**
 * The launch of a SUT under cachegrind: every process of it (`--trace-children`) writes its own count.
 * @param {string} valgrind @param {{ command: string, args: string[] }} launch @param {string} outDir
 * @returns {{ command: string, args: string[] }}
 */
export function underCachegrind (valgrind, launch, outDir) {
  return {
    command: valgrind,
    args: ['--tool=cachegrind', '--cache-sim=no', '--trace-children=yes', '--quiet',
      `--cachegrind-out-file=${join(outDir, 'cachegrind.out.%p')}`, launch.command, ...launch.args]
  }
}

/**
 * The instructions every process of a launch executed, from the `summary:` line of each cachegrind file.
 * @param {string} outDir
 * @returns {{ instructions: number, processes: number }}
 */
export function readInstructions (outDir) {
  let instructions = 0
  let processes = 0
  for (const name of readdirSync(outDir).filter((entry) => entry.startsWith('cachegrind.out.'))) {
    const summary = /^summary:\s+(\d+)/m.exec(readFileSync(join(outDir, name), 'utf8'))
    if (!summary) continue
    instructions += Number(summary[1])
    processes += 1
  }
  return { instructions, processes }
}
