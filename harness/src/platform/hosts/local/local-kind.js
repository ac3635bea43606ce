// @ts-check
// This machine (`local`): the default host of the SUT and the load; it shares everything with dyno and needs no preparing.
import { environmentFingerprint } from '../../env/fingerprint.js'
import { localHost } from './local-host.js'

/** @type {import('../host.js').HostKind} */
export const localHostKind = {
  name: 'local',
  form: '`local` (this machine)',
  names: (text) => text.trim() === 'local',
  parse: () => ({ kind: 'local', url: 'local' }),
  connect: async (target, role) => localHost(role, environmentFingerprint()),
  prepare: null
}
