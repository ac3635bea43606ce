// @ts-check
// This machine as a host: processes started here, read from /proc here, reached on the loopback.
import { once } from 'node:events'
import { hostname } from 'node:os'
import { currentMachine } from '../../pinning/resolve-pinning.js'
import { findExecutable } from '../../util/find-executable.js'
import { freePort } from '../free-port.js'
import { measureLinkRtt } from '../link-rtt.js'
import { spawnGroupLeader, stopProcessGroup } from '../../process/process-group.js'

/**
 * @param {string} role `sut` or `load`
 * @param {Record<string, unknown>} fingerprint this machine's (env/fingerprint.js)
 * @returns {import('../host.js').Host}
 */
export function localHost (role, fingerprint) {
  return {
    name: 'local',
    sharesFilesystem: true,
    sharesNetwork: true,
    sharesProcesses: true,
    address: '127.0.0.1',
    listenAddress: '127.0.0.1',
    addressOfThisMachine: '127.0.0.1',
    spawnGroup: spawnLocalGroup,
    launchOn: (command, args) => ({ command, args }),
    freePorts: async (count) => {
      const ports = []
      for (let index = 0; index < count; index++) ports.push(await freePort())
      return ports
    },
    machine: currentMachine(),
    which: (name) => findExecutable(name),
    measureRtt: ({ address, port, to, method }) => measureLinkRtt({ address, port, from: 'local', to, method }),
    description: { name: 'local', role, address: '127.0.0.1', fingerprint: { hostname: hostname(), ...fingerprint } }
  }
}

/**
 * @param {import('../host.js').SpawnSpec} spec
 * @returns {Promise<import('../host.js').HostProcess>}
 */
export async function spawnLocalGroup ({ command, args, cwd, env, unsetEnv = [], label, uid, gid, stdinText }) {
  const merged = { ...process.env, ...env }
  for (const name of unsetEnv) delete merged[name]
  const child = spawnGroupLeader(command, args, {
    cwd,
    env: merged,
    uid,
    gid,
    stdio: [stdinText === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']
  })
  if (stdinText !== undefined) {
    child.stdin?.on('error', () => {})
    child.stdin?.end(stdinText)
  }
  await Promise.race([once(child, 'spawn'), once(child, 'error').then(([error]) => { throw error })])
  const exited = new Promise((resolve) => { child.once('exit', (code, signal) => resolve({ code, signal })) })
  return {
    pid: /** @type {number} */ (child.pid),
    stdout: /** @type {import('node:stream').Readable} */ (child.stdout),
    stderr: /** @type {import('node:stream').Readable} */ (child.stderr),
    exited,
    hasExited: () => child.exitCode !== null || child.signalCode !== null,
    stop: (graceMs) => stopProcessGroup(child, { graceMs, label }),
    readGroup: null,
    lostReason: () => null
  }
}
