// @ts-check
// A kind of host made for tests, in one folder as every kind is: `apart://NAME` runs its processes on this machine, but says it
// shares neither this machine's files nor its processes (only its loopback), so that everything dyno does for another machine
// (services made by the host's checkout, its processes read as its own, its fingerprint recorded) runs here, through the host's
// answers alone. Nothing in dyno knows this kind: it reaches the harness the way a new kind in hosts/ would.
import { hostname } from 'node:os'
import { currentMachine } from '../../../src/platform/pinning/resolve-pinning.js'
import { findExecutable } from '../../../src/platform/util/find-executable.js'
import { freePort } from '../../../src/platform/hosts/free-port.js'
import { measureLinkRtt } from '../../../src/platform/hosts/link-rtt.js'
import { spawnLocalGroup } from '../../../src/platform/hosts/local/local-host.js'

/** @type {import('../../../src/platform/hosts/host.js').HostKind} */
export const apartHostKind = {
  name: 'apart',
  form: '`apart://NAME` (this machine, as if it were another: a kind for tests)',
  names: (text) => text.startsWith('apart://'),
  parse: (text, flag) => {
    const name = text.slice('apart://'.length)
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`\`${flag}\` needs a name after apart://, got \`${text}\``)
    return { kind: 'apart', url: `apart://${name}` }
  },
  connect: async (target, role) => ({
    name: target.url,
    sharesFilesystem: false,
    sharesNetwork: true,
    sharesProcesses: false,
    address: '127.0.0.1',
    listenAddress: '127.0.0.1',
    addressOfThisMachine: '127.0.0.1',
    spawnGroup: spawnLocalGroup,
    launchOn: (command, args) => ({ command, args }),
    freePorts: async (count) => Promise.all(Array.from({ length: count }, () => freePort())),
    machine: currentMachine(),
    which: (name) => findExecutable(name),
    measureRtt: ({ address, port, to, method }) => measureLinkRtt({ address, port, from: target.url, to, method }),
    description: { name: target.url, role, address: '127.0.0.1', fingerprint: { hostname: `${hostname()} (${target.url})` } }
  }),
  prepare: null
}
