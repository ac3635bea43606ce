// @ts-check
// The native engine as the registry knows it (load/engines/index.js): dyno's Rust client, the fastest here, the one engine that
// also spreads its load over several hosts (`--load-hosts`).
import { oneThreadPerCpu } from '../engine.js'
import { findNativeEngine } from './native-binary.js'
import { startNativeLoad } from './native-engine.js'
import { MAX_BODY_MIB_OPTION, nativeSettingsOf } from './native-options.js'
import { MAX_STREAMS, NATIVE_PROTOCOLS } from './native-protocols.js'
import { startNativeOnHosts } from './native-on-hosts.js'

/** @type {import('../engine.js').Engine} */
export const nativeEngine = {
  name: 'native',
  recordedNames: ['native'],
  fastestHere: true,
  autoPreference: 2,
  description: 'native (Rust, built by pnpm install: one thread per generator cpu, closed loop or --rate, every response checked, windows)',
  protocols: Object.keys(NATIVE_PROTOCOLS),
  maxStreams: MAX_STREAMS,
  availability () {
    const found = findNativeEngine()
    return found.ok ? { ok: true, version: found.version } : found
  },
  options: [MAX_BODY_MIB_OPTION],
  settingsOf: nativeSettingsOf,
  refusal: () => null,
  threads: (connections, generatorCpus) => oneThreadPerCpu(connections, generatorCpus),
  start: startNativeLoad,
  recordedAs () {
    const found = findNativeEngine()
    return { engine: 'native', engineVersion: found.ok ? found.version : 'not built' }
  },
  startOnHosts: startNativeOnHosts,
  calibrations: [{ label: 'native', start: startNativeLoad }]
}
