// @ts-check
// What a test needs that a machine may lack, said once: a test file asks for what it needs and gets either nothing (all
// here) or the reason, which goes into the skipped test's title. Under CI=true, where .ci/run installs every one of these,
// a missing one fails the file at once instead.
import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { findCallgrind } from '../../src/measures/instructions/counts/callgrind.js'
import { ENGINES, engineNamed } from '../../src/load/engines/index.js'
import { resolvePinning } from '../../src/platform/pinning/resolve-pinning.js'
import { findPostgresBinaries } from '../../src/subjects/services/postgres-service.js'
import { findExecutable } from '../../src/platform/util/find-executable.js'
import { CHROMIUM_PATH } from './browser.js'

/** @type {Record<string, () => string | null>} each requirement: why it is missing here, or null */
const REQUIREMENTS = {
  wrk: () => (engineNamed('wrk').availability().ok ? null : 'wrk is not installed (apt-get install wrk)'),
  native: () => {
    const found = engineNamed('native').availability()
    return found.ok ? null : `the native engine is missing: ${found.reason}`
  },
  valgrind: () => (findCallgrind() ? null : 'valgrind is not installed (apt-get install valgrind)'),
  strace: () => (findExecutable('strace', ['/usr/bin', '/bin']) ? null : 'strace is not installed (apt-get install strace)'),
  openssl: () => (findExecutable('openssl') ? null : 'openssl is not installed (apt-get install openssl)'),
  chromium: () => (CHROMIUM_PATH ? null : 'chromium is not installed (apt-get install chromium)'),
  go: () => (spawnSync('go', ['version']).status === 0 ? null : 'go is not installed (the Go SUTs and actionlint are built with it)'),
  python: () =>
    spawnSync(process.env.DYNO_PYTHON || 'python3', ['-c', 'import venv']).status === 0
      ? null
      : 'python3 with venv is not installed (apt-get install python3-venv)',
  redis: () =>
    process.env.REDIS_URL || findExecutable('redis-server')
      ? null
      : 'redis-server is not installed (apt-get install redis-server) and REDIS_URL is not set',
  postgres: () =>
    process.env.DATABASE_URL || findPostgresBinaries()
      ? null
      : 'PostgreSQL is not installed (apt-get install postgresql) and DATABASE_URL is not set',
  // Hosts of their own on this machine: network namespaces (root, iproute2), an sshd in each, the OpenSSH client and tc for delay.
  hosts: () => {
    if (process.getuid?.() !== 0) return 'network namespaces need root'
    const missing = [
      ['ip', 'iproute2'],
      ['tc', 'iproute2'],
      ['ssh', 'openssh-client'],
      ['ssh-keygen', 'openssh-client'],
      ['sshd', 'openssh-server'],
      ['iptables', 'iptables']
    ].filter(([name]) => !findExecutable(name, ['/usr/sbin', '/sbin']))
    const packages = [...new Set(missing.map(([, pkg]) => pkg))]
    return missing.length === 0 ? null : `${missing.map(([name]) => name).join(', ')} missing (apt-get install ${packages.join(' ')})`
  },
  // Variants of a framework are resolved against the registry npm is configured with, and installed from it.
  registry: () =>
    spawnSync('npm', ['view', 'express@4.21.2', 'version'], { timeout: 60_000 }).status === 0
      ? null
      : 'the npm registry cannot be reached (`npm view express@4.21.2 version` fails)',
  'two cpus': () =>
    availableParallelism() >= 2
      ? null
      : `needs two cpus to pin the SUT and the generator apart; this machine has ${availableParallelism()}`,
  pinning: () => {
    const plan = resolvePinning({ mode: 'auto' })
    return plan.pinned ? null : `pinning is off here: ${plan.reason}`
  }
}

/** @typedef {keyof typeof REQUIREMENTS} Requirement */

/**
 * What a SUT's build needs on this machine (a Go SUT is built with Go, a Python SUT gets a virtual environment); none for the others.
 * @param {{ runtimeKind: string }} sut
 * @returns {Requirement[]}
 */
export function toolchainOf (sut) {
  return sut.runtimeKind === 'go' ? ['go'] : sut.runtimeKind === 'python' ? ['python'] : []
}

/**
 * @param {...Requirement} names
 * @returns {string | null} why the test cannot run here (every missing requirement), or null when all are here
 * @throws {Error} under CI=true, when one is missing
 */
export function missing (...names) {
  const reasons = names.map((name) => REQUIREMENTS[name]()).filter((reason) => reason !== null)
  if (reasons.length === 0) return null
  if (process.env.CI === 'true') throw new Error(`this test needs what is missing under CI=true: ${reasons.join('; ')}`)
  return reasons.join('; ')
}

/**
 * Why a registered load engine cannot run here (what to install), or null; under CI=true, where .ci/run installs every engine,
 * that is a failure instead.
 * @param {import('../../src/load/engines/engine.js').Engine} engine
 * @returns {string | null}
 */
export function missingEngine (engine) {
  const found = engine.availability()
  if (found.ok) return null
  if (process.env.CI === 'true') {
    throw new Error(`this test needs what is missing under CI=true: the ${engine.name} engine: ${found.reason}`)
  }
  return `the ${engine.name} engine: ${found.reason}`
}

/**
 * Every requirement of the suite and every registered engine, each with why it is missing here (null: here), without throwing:
 * what `.ci/run` checks before any test runs, so that a missing tool is named once, up front, instead of failing a test file minutes in.
 * @returns {{ name: string, reason: string | null }[]}
 */
export function everyNeed () {
  const requirements = Object.entries(REQUIREMENTS).map(([name, why]) => ({ name, reason: why() }))
  const engines = ENGINES.map((engine) => {
    const found = engine.availability()
    return { name: `the ${engine.name} engine`, reason: found.ok ? null : found.reason }
  })
  return [...requirements, ...engines]
}

/** @param {string | null} reason what `missing` said @returns {string} for a describe's title: ` (skipped: why)`, or nothing */
export function skipNote (reason) {
  return reason ? ` (skipped: ${reason})` : ''
}

/**
 * For a requirement known only while the test runs: skips it with the reason (fails it under CI=true).
 * @param {{ skip: (note?: string) => void }} context vitest's test context
 * @param {...Requirement} names
 */
export function skipUnless (context, ...names) {
  const reason = missing(...names)
  if (reason) context.skip(reason)
}
