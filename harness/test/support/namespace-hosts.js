// @ts-check
// "Hosts" on this one machine for the tests of dyno across hosts: each a network namespace of its own, joined to this machine's
// namespace by a veth pair, running Debian's sshd on its address with a key made for the test. They share the filesystem, so
// each host's checkout of dyno is a directory of its own. Everything is torn down by `remove()`, bounded in time.
import { execFileSync, spawn } from 'node:child_process'
import { connect } from 'node:net'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'

const SSHD = '/usr/sbin/sshd'
const READY_TIMEOUT_MS = 10_000

/** @param {string[]} args */
const ip = (args) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString()

/**
 * @typedef {object} NamespaceHost
 * @property {string} namespace
 * @property {string} address its address on the link
 * @property {string} hostSide the interface on this machine's side of the link
 * @property {string} url `ssh://root@address/dir` for dyno
 * @property {string} dir its checkout directory (the hosts' one, on the filesystem they share)
 * @property {(argv: string[]) => string} exec runs a command inside the namespace (not over ssh) and returns its output
 * @property {(delayMs: number) => void} delayLink netem delay on both ends of the link (0: none)
 * @property {(up: boolean) => void} setLink brings the link down (a dropped connection) or up
 * @property {() => number[]} pids the processes running in the namespace now
 * @property {() => { rxBytes: number, txBytes: number }} linkBytes what crossed the link so far, as this machine's end counts it
 */

/**
 * @param {{ tag: string, index: number, sshDir: string, dir: string }} spec tag: a few letters that tell this test's hosts apart;
 *   dir: the host's checkout directory
 * @returns {Promise<NamespaceHost & { sshd: import('node:child_process').ChildProcess }>}
 */
async function createHost ({ tag, index, sshDir, dir }) {
  const namespace = `dyno-${tag}-${index}`
  const hostSide = `dy${tag}${index}h`
  const inside = `dy${tag}${index}n`
  const subnet = `10.${200 + index}.${tag.charCodeAt(0) % 250}`
  const address = `${subnet}.2`
  ip(['netns', 'add', namespace])
  ip(['link', 'add', hostSide, 'type', 'veth', 'peer', 'name', inside])
  ip(['link', 'set', inside, 'netns', namespace])
  ip(['addr', 'add', `${subnet}.1/24`, 'dev', hostSide])
  ip(['link', 'set', hostSide, 'up'])
  const inNamespace = (/** @type {string[]} */ argv) =>
    execFileSync('ip', ['netns', 'exec', namespace, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] }).toString()
  inNamespace(['ip', 'addr', 'add', `${address}/24`, 'dev', inside])
  inNamespace(['ip', 'link', 'set', inside, 'up'])
  inNamespace(['ip', 'link', 'set', 'lo', 'up'])
  inNamespace(['ip', 'route', 'add', 'default', 'via', `${subnet}.1`])
  // The way out this machine has (a registry, PyPI), for the host's install: forwarded and masqueraded.
  writeFileSync('/proc/sys/net/ipv4/ip_forward', '1')
  // Only what leaves through this machine's own uplink: between two hosts' namespaces each sees the other's address.
  execFileSync('iptables', ['-t', 'nat', '-A', 'POSTROUTING', '-s', `${subnet}.0/24`, '!', '-o', 'dy+', '-j', 'MASQUERADE'], {
    stdio: 'ignore'
  })
  const hostKey = join(sshDir, `host-${index}`)
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey])
  writeFileSync(join(sshDir, 'known_hosts'), `${address} ${readFileSync(`${hostKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ')}\n`, {
    flag: 'a'
  })
  mkdirSync('/run/sshd', { recursive: true })
  const sshd = spawn('ip', ['netns', 'exec', namespace, SSHD, '-D', '-e', '-f', '/dev/null', '-h', hostKey,
    '-o', `ListenAddress=${address}`, '-o', `AuthorizedKeysFile=${join(sshDir, 'authorized_keys')}`, '-o', 'StrictModes=no',
    '-o', 'PidFile=none', '-o', 'UsePAM=no', '-o', 'PermitRootLogin=prohibit-password', '-o', 'MaxSessions=100', '-o', 'MaxStartups=100',
    // A host keeps its own cargo cache, as this machine does (.ci/run): the namespaces share one, passed by the client's SetEnv.
    '-o', 'AcceptEnv=CARGO_TARGET_DIR'],
  { stdio: ['ignore', 'ignore', 'pipe'] })
  let sshdLog = ''
  sshd.stderr?.on('data', (chunk) => { sshdLog = `${sshdLog}${chunk}`.slice(-4000) })
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (!(await accepts(address, 22))) {
    if (Date.now() > deadline || sshd.exitCode !== null) throw new Error(`sshd in ${namespace} did not start: ${sshdLog}`)
    await delay(50)
  }
  return {
    namespace,
    address,
    hostSide,
    url: `ssh://root@${address}${dir}`,
    dir,
    sshd,
    exec: inNamespace,
    delayLink: (delayMs) => {
      const change = (/** @type {string} */ device) => delayMs > 0
        ? ['qdisc', 'replace', 'dev', device, 'root', 'netem', 'delay', `${delayMs}ms`]
        : ['qdisc', 'del', 'dev', device, 'root']
      try {
        execFileSync('tc', change(hostSide), { stdio: 'ignore' })
        inNamespace(['tc', ...change(inside)])
      } catch (error) {
        if (delayMs > 0) throw error // taking away a delay that is not there is fine
      }
    },
    linkBytes: () => ({
      rxBytes: Number(readFileSync(`/sys/class/net/${hostSide}/statistics/rx_bytes`, 'utf8')),
      txBytes: Number(readFileSync(`/sys/class/net/${hostSide}/statistics/tx_bytes`, 'utf8'))
    }),
    setLink: (up) => ip(['link', 'set', hostSide, up ? 'up' : 'down']),
    pids: () => ip(['netns', 'pids', namespace]).trim().split('\n').filter(Boolean).map(Number).filter((pid) => pid !== sshd.pid)
  }
}

/** @param {string} host @param {number} port @returns {Promise<boolean>} */
function accepts (host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 500 })
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => { socket.destroy(); resolve(false) })
  })
}

/**
 * Creates `count` hosts, and the ssh configuration dyno uses to reach them (DYNO_SSH_CONFIG). The namespaces share this machine's
 * filesystem, so the hosts share one checkout directory too: `dyno host prepare` on one host installs dyno for all of them (one
 * install in minutes, not one per host on the same two cpus).
 * @param {{ tag: string, count: number }} spec
 */
export async function createNamespaceHosts ({ tag, count }) {
  const sshDir = mkdtempSync(join(tmpdir(), `dyno-hosts-${tag}-`))
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(sshDir, 'client')])
  writeFileSync(join(sshDir, 'authorized_keys'), readFileSync(join(sshDir, 'client.pub')))
  writeFileSync(join(sshDir, 'known_hosts'), '')
  const sshConfig = join(sshDir, 'ssh_config')
  writeFileSync(
    sshConfig,
    [
      'Host *',
      `  IdentityFile ${join(sshDir, 'client')}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${join(sshDir, 'known_hosts')}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '  LogLevel ERROR',
      // The host's install builds the native engine into the cargo cache this machine's checkouts share, as a host with a cache of
      // its own would: compiled once per machine, not once per test run.
      ...(process.env.CARGO_TARGET_DIR ? [`  SetEnv CARGO_TARGET_DIR=${resolve(process.env.CARGO_TARGET_DIR)}`] : []),
      ''
    ].join('\n')
  )
  /** @type {Awaited<ReturnType<typeof createHost>>[]} */
  const hosts = []
  const remove = async () => {
    for (const host of hosts) {
      for (const pid of safe(() => host.pids(), [])) safe(() => process.kill(pid, 'SIGKILL'), undefined)
      host.sshd.kill('SIGKILL')
      safe(() => ip(['netns', 'del', host.namespace]), '')
      safe(() => ip(['link', 'del', host.hostSide]), '')
      safe(
        () =>
          execFileSync(
            'iptables',
            ['-t', 'nat', '-D', 'POSTROUTING', '-s', `${host.address.replace(/\.2$/, '.0')}/24`, '!', '-o', 'dy+', '-j', 'MASQUERADE'],
            { stdio: 'ignore' }
          ),
        Buffer.alloc(0)
      )
    }
    rmSync(sshDir, { recursive: true, force: true })
  }
  try {
    const dir = join(sshDir, 'checkout')
    for (let index = 0; index < count; index++) hosts.push(await createHost({ tag, index, sshDir, dir }))
  } catch (error) {
    await remove()
    throw error
  }
  return { hosts, sshConfig, sshDir, remove }
}

/** @template T @param {() => T} run @param {T} fallback @returns {T} */
function safe (run, fallback) {
  try {
    return run()
  } catch {
    return fallback
  }
}

/** @returns {string | null} why `tc … netem` cannot shape a link here (a kernel without CONFIG_NET_SCH_NETEM), or null */
export function netemMissing () {
  const probe = 'dynetemprobe'
  try {
    ip(['link', 'add', probe, 'type', 'veth', 'peer', 'name', `${probe}p`])
  } catch {
    return 'cannot make a link to probe for netem'
  }
  try {
    execFileSync('tc', ['qdisc', 'add', 'dev', probe, 'root', 'netem', 'delay', '1ms'], { stdio: ['ignore', 'ignore', 'pipe'] })
    return null
  } catch (error) {
    return (
      'this kernel cannot delay a link with netem ' +
        `(${String(/** @type {{ stderr?: Buffer }} */ (error).stderr ?? '').trim() || 'tc failed'}; ` +
      'CONFIG_NET_SCH_NETEM), and .ci/run cannot install a kernel feature'
    )
  } finally {
    safe(() => ip(['link', 'del', probe]), '')
  }
}
