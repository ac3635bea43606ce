// @ts-check
// What a calibration kept in the cache directory holds for (the engine calibration, the noise calibration): this machine, its kernel,
// Node, dyno, the engines installed and the pinning. A stored calibration whose key differs in any of these is measured again.
import { readFileSync } from 'node:fs'
import { cpus, release, totalmem } from 'node:os'

const HARNESS_VERSION = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version

/**
 * @typedef {ReturnType<typeof machineKey>} MachineKey
 */

/**
 * @param {import('../../platform/pinning/resolve-pinning.js').PinPlan} pinning
 * @param {readonly import('../../load/engines/engine.js').Engine[]} engines each one's version is part of the key (null where absent)
 */
export function machineKey (pinning, engines) {
  const cpu = cpus()
  return {
    dyno: HARNESS_VERSION,
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    engines: Object.fromEntries(engines.map((engine) => {
      const found = engine.availability()
      return [engine.name, found.ok ? found.version : null]
    })),
    sutCpus: pinning.sutCpus,
    generatorCpus: pinning.generatorCpus
  }
}

/**
 * @param {unknown} stored the key a stored calibration carries, as read @param {Record<string, unknown>} key this machine's now
 * @returns {string[]} the names of the fields that differ (none: it holds)
 */
export function keyDifferences (stored, key) {
  const read = stored && typeof stored === 'object' ? /** @type {Record<string, unknown>} */ (stored) : {}
  return Object.keys(key).filter((name) => !Object.hasOwn(read, name) || JSON.stringify(read[name]) !== JSON.stringify(key[name]))
}
