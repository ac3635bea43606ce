// @ts-check
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { REPO_ROOT } from '../paths.js'

const HARNESS_VERSION = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version
/** @param {string[]} args @returns {string | null} */
function git (args) {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

/**
 * What the numbers were measured on: the machine, the OS, Node, the harness and the commit.
 * Taken once per run and written into run.json and every result.
 */
export function environmentFingerprint () {
  const cpus = os.cpus()
  const commit = git(['rev-parse', 'HEAD'])
  const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no'])
  return {
    cpu: {
      model: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      speedMHz: cpus[0]?.speed || null
    },
    memoryBytes: os.totalmem(),
    os: {
      platform: os.platform(),
      type: os.type(),
      release: os.release(),
      version: os.version(),
      arch: os.arch()
    },
    node: process.version,
    harnessVersion: HARNESS_VERSION,
    git: {
      commit,
      dirty: status === null ? null : status.length > 0
    },
    ci: process.env.CI === 'true' || process.env.CI === '1',
    /** The data services of the run (version, source, address), filled in once they are started. */
    services: /** @type {Record<string, Record<string, unknown>>} */ ({}),
    /** A run across hosts: the SUT's host and the load hosts, each with its environment. */
    hosts: /** @type {import('../hosts/host.js').HostDescription[] | undefined} */ (undefined)
  }
}
