// @ts-check
// A host reached over SSH, with a checkout of dyno prepared by `dyno host prepare` at the same commit and lockfile as this one.
// Its processes run under the process guard, one SSH session each (guarded-process.js); its facts come from host-facts.js.
import { execFileSync } from 'node:child_process'
import { lookup } from 'node:dns/promises'
import { isAbsolute, relative } from 'node:path'
import { DynoError } from '../../errors.js'
import { REPO_ROOT } from '../../paths.js'
import { startGuardedProcess } from './guarded-process.js'
import { lockfileHash } from '../remote/checkout-stamp.js'
import { REPLY_NONCE_ENV, replyIn, replyNonce } from '../remote/script-reply.js'
import { runOverSsh } from './ssh-command.js'
import { DEFAULT_RESOURCE_INTERVAL_MS } from '../../resources/resource-defaults.js'

const FACTS_SCRIPT = 'harness/src/platform/hosts/remote/host-facts.js'
const RTT_SCRIPT = 'harness/src/platform/hosts/remote/measure-rtt.js'
/** How long the guard lets a process's group end after SIGTERM before SIGKILL: above the grace dyno gives SUTs and services here. */
const GUARD_GRACE_MS = 10_000
/** The oldest Node a host may run dyno's checkout with (package.json `engines`). */
const MIN_NODE = [20, 19]

/**
 * @typedef {object} HostFacts what host-facts.js prints
 * @property {string} hostname
 * @property {ReturnType<typeof import('../../env/fingerprint.js').environmentFingerprint>} fingerprint the host's environment, as a result
 *   records it
 * @property {string} nodePath
 * @property {{ dir: string, stamp: import('../remote/checkout-stamp.js').CheckoutStamp | null, lockfileSha256: string | null, installed:
 *   boolean }} checkout
 * @property {Record<string, string | null>} executables where the host has taskset, valgrind, redis-server, pnpm, cc, cargo and
 *   PostgreSQL's binaries (its directory), or null
 * @property {number[]} ports
 * @property {string | null} sshClientAddress this machine's address as the host saw the SSH connection come from
 */

/**
 * Asks the host for its facts from its checkout; every way that can fail is an error naming the host and what to do.
 * @param {import('./ssh-url.js').SshTarget} target
 * @param {{ ports?: number, portAddress?: string }} [options]
 * @returns {Promise<HostFacts>}
 */
export async function hostFacts (target, { ports = 0, portAddress = '127.0.0.1' } = {}) {
  const nonce = replyNonce()
  const { code, stdout, stderr } =
    await runOverSsh(target, ['env', `${REPLY_NONCE_ENV}=${nonce}`, 'node', FACTS_SCRIPT, String(ports), portAddress])
  const reply = code === 0 ? replyIn(stdout, nonce) : null
  if (reply) return /** @type {HostFacts} */ (reply.value)
  const said = stderr.trim().split('\n').slice(-2).join(' / ') || (code === 0 ? 'it answered no facts' : `exit code ${code}`)
  if (code === 127 && /node/.test(stderr)) {
    throw new DynoError('DYNO_ERR_HOST_UNREACHABLE', `${target.url} has no \`node\` on the PATH of a non-interactive login (${said}); ` +
      `install Node.js ${MIN_NODE.join('.')} or later there`)
  }
  throw new DynoError(
    'DYNO_ERR_HOST_NOT_PREPARED',
    `${target.url} has no usable dyno checkout in \`${target.dir}\` (${said}); ` +
      `run \`dyno host prepare ${target.url}\``
  )
}

/**
 * The round trip from the host to a server, measured there by its checkout (measure-rtt.js).
 * @param {import('./ssh-url.js').SshTarget} target @param {string} nodePath the host's node, as its facts say
 * @param {{ address: string, port: number, to: string, method: 'http' | 'tcp' }} server
 * @returns {Promise<import('../link-rtt.js').LinkRtt>}
 * @throws {DynoError} DYNO_ERR_HOST_LOST: it could not, or gave no answer
 */
export async function measureRttOverSsh (target, nodePath, { address, port, to, method }) {
  const nonce = replyNonce()
  const { code, stdout, stderr } = await runOverSsh(target,
    ['env', `${REPLY_NONCE_ENV}=${nonce}`, nodePath, RTT_SCRIPT, address, String(port), target.url, to, method])
  const reply = code === 0 ? replyIn(stdout, nonce) : null
  if (!reply) {
    throw new DynoError('DYNO_ERR_HOST_LOST', `${target.url} could not measure its round trip to ${address}:${port}: ` +
      `${stderr.trim() || 'it gave no answer'}`)
  }
  return /** @type {import('../link-rtt.js').LinkRtt} */ (reply.value)
}

/** @returns {string | null} this checkout's commit */
export function localCommit () {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

/**
 * Refuses a host whose checkout is not this one's commit and lockfile, or whose Node is too old, naming both sides.
 * @param {import('./ssh-url.js').SshTarget} target @param {HostFacts} facts
 */
export function checkSameCheckout (target, facts) {
  const [major, minor] = String(facts.fingerprint.node).replace(/^v/, '').split('.').map(Number)
  if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
    throw new DynoError(
      'DYNO_ERR_HOST_UNREACHABLE',
      `${target.url} runs Node ${facts.fingerprint.node}; dyno needs ${MIN_NODE.join('.')} or later there`
    )
  }
  const here = { commit: localCommit(), lockfile: lockfileHash(REPO_ROOT) }
  const there = { commit: facts.checkout.stamp?.commit ?? facts.fingerprint.git?.commit ?? null, lockfile: facts.checkout.lockfileSha256 }
  const prepare = `run \`dyno host prepare ${target.url}\` from this checkout`
  if (here.commit !== there.commit) {
    throw new DynoError('DYNO_ERR_HOST_NOT_PREPARED', `${target.url}:${facts.checkout.dir} is at commit ${there.commit ?? 'unknown'}, ` +
      `this checkout at ${here.commit ?? 'unknown'}; ${prepare}`)
  }
  if (here.lockfile !== there.lockfile) {
    throw new DynoError(
      'DYNO_ERR_HOST_NOT_PREPARED',
      `${target.url}:${facts.checkout.dir} has lockfile ${there.lockfile?.slice(0, 12) ?? 'none'}, ` +
        `this checkout ${here.lockfile?.slice(0, 12) ?? 'none'}; ${prepare}`
    )
  }
  if (!facts.checkout.installed) {
    throw new DynoError('DYNO_ERR_HOST_NOT_PREPARED', `${target.url}:${facts.checkout.dir} is not installed; ${prepare}`)
  }
}

/**
 * The address this machine reaches the host at: what ssh itself would connect to (its configuration's HostName), resolved here.
 * @param {import('./ssh-url.js').SshTarget} target @returns {Promise<string>}
 */
async function addressOf (target) {
  let name = target.hostname
  try {
    const config = process.env.DYNO_SSH_CONFIG
    const resolved = execFileSync('ssh', [...(config ? ['-F', config] : []), '-G', '--', target.hostname],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    name = /^hostname (.+)$/m.exec(resolved)?.[1] ?? name
  } catch {
    // an ssh without -G: the name as given
  }
  return (await lookup(name)).address
}

/**
 * Connects to a prepared host: its facts, the same checkout as this one, the address it is reached at.
 * @param {import('./ssh-url.js').SshTarget} target
 * @param {string} role `sut` or `load`
 * @returns {Promise<import('../host.js').Host>}
 */
export async function connectSshHost (target, role) {
  const facts = await hostFacts(target)
  checkSameCheckout(target, facts)
  const address = await addressOf(target)
  // An absolute path inside this checkout, as the host's checkout has it; any other argument as it is.
  const onHost = (/** @type {string} */ path) => {
    if (!isAbsolute(path)) return path
    const inside = relative(REPO_ROOT, path)
    return inside.startsWith('..') || isAbsolute(inside) ? path : `${facts.checkout.dir}${inside}`
  }
  return {
    name: target.url,
    sharesFilesystem: false,
    sharesNetwork: false,
    sharesProcesses: false,
    address,
    listenAddress: address,
    addressOfThisMachine: facts.sshClientAddress ?? address,
    spawnGroup: (spec) =>
      startGuardedProcess(
        target,
        {
          command: spec.command,
          args: spec.args,
          cwd: onHost(spec.cwd),
          env: spec.env,
          unsetEnv: spec.unsetEnv ?? [],
          ...(spec.stdinText === undefined ? {} : { stdinText: spec.stdinText }),
          ...(spec.uid === undefined ? {} : { uid: spec.uid, gid: spec.gid }),
          graceMs: GUARD_GRACE_MS,
          sampleMs: DEFAULT_RESOURCE_INTERVAL_MS
        },
        { node: facts.nodePath, label: spec.label }
      ),
    launchOn: (command, args) => ({ command: command === process.execPath ? facts.nodePath : command, args: args.map(onHost) }),
    freePorts: async (count) => (await hostFacts(target, { ports: count, portAddress: address })).ports,
    machine: {
      platform: facts.fingerprint.os.platform,
      cpus: Array.from({ length: facts.fingerprint.cpu.cores }, (_, cpu) => cpu),
      tasksetPath: facts.executables.taskset
    },
    which: (name) => facts.executables[name] ?? null,
    measureRtt: (server) => measureRttOverSsh(target, facts.nodePath, server),
    description: {
      name: target.url,
      role,
      address,
      fingerprint: { hostname: facts.hostname, ...facts.fingerprint, checkout: facts.checkout.dir }
    }
  }
}
