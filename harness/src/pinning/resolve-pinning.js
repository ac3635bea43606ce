// @ts-check
// Turns `--pin` into where the SUT and the load generator run, on this machine.
import { DynoError } from '../errors.js'
import { findExecutable } from '../services/find-executable.js'
import { formatCpuList, machineCpus } from './cpu-list.js'
import { parsePin } from './pin-option.js'

/**
 * @typedef {object} Machine what pinning depends on
 * @property {NodeJS.Platform} platform
 * @property {number[]} cpus the cpus dyno may use
 * @property {string | null} tasksetPath
 *
 * @typedef {object} PinPlan recorded with the run
 * @property {'auto' | 'off' | 'explicit'} mode what was asked
 * @property {boolean} pinned
 * @property {number[] | null} sutCpus null when not pinned
 * @property {number[] | null} generatorCpus
 * @property {string | null} reason why not pinned (null when pinned)
 */

/** @returns {Machine} */
export function currentMachine () {
  return { platform: process.platform, cpus: machineCpus(), tasksetPath: process.platform === 'linux' ? findExecutable('taskset') : null }
}

/**
 * `auto`: on Linux with two cpus or more and `taskset`, the SUT gets every cpu but the last and the
 * generator the last one (two cpus: sut=0, gen=1); otherwise not pinned, with the reason.
 * @param {import('./pin-option.js').PinRequest | string} pin as `pinOption` parsed it, or the option's text
 *   (the option table's default arrives unparsed when parseOptions is called without cac)
 * @param {Machine} [machine]
 * @returns {PinPlan}
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION when explicit cpus were asked on a machine that cannot pin
 */
export function resolvePinning (pin, machine = currentMachine()) {
  const request = typeof pin === 'string' ? parsePin(pin, '--pin', machine.cpus) : pin
  const off = (/** @type {string} */ reason) => ({ mode: request.mode, pinned: false, sutCpus: null, generatorCpus: null, reason })
  if (request.mode === 'off') return off('`--pin off`')
  const cannot = machine.platform !== 'linux'
    ? `pinning needs Linux (this is ${machine.platform})`
    : machine.tasksetPath === null ? 'pinning needs `taskset` on PATH (apt-get install util-linux)' : null
  if (request.mode === 'explicit') {
    if (cannot) {
      throw new DynoError('DYNO_ERR_INVALID_OPTION', `\`--pin sut=${formatCpuList(request.sutCpus)},gen=${formatCpuList(request.generatorCpus)}\` cannot be honoured: ${cannot}; use \`--pin off\``)
    }
    return { mode: 'explicit', pinned: true, sutCpus: request.sutCpus, generatorCpus: request.generatorCpus, reason: null }
  }
  if (cannot) return off(cannot)
  if (machine.cpus.length < 2) return off(`pinning needs two cpus or more; dyno may use ${machine.cpus.length} (${formatCpuList(machine.cpus)})`)
  return { mode: 'auto', pinned: true, sutCpus: machine.cpus.slice(0, -1), generatorCpus: machine.cpus.slice(-1), reason: null }
}
