// @ts-check
// Turns `--pin` into where the SUT and the load generator run, on this machine.
import { DynoError } from '../errors.js'
import { findExecutable } from '../util/find-executable.js'
import { formatCpuList, machineCpus } from './cpu-list.js'

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
 * @property {number} [sutCpuAllotment] auto: the cpus the SUT was to get (`--sut-cpus`, else one per server worker);
 *   it gets fewer only on a machine without a cpu to spare for the generator otherwise
 */

/** @returns {Machine} */
export function currentMachine () {
  return { platform: process.platform, cpus: machineCpus(), tasksetPath: process.platform === 'linux' ? findExecutable('taskset') : null }
}

/**
 * `auto`: on Linux with two cpus or more and `taskset`, the SUT gets a fixed allotment, the first
 * `sutCpus` cpus (one per server worker unless `--sut-cpus` says otherwise), whatever the machine's size, and
 * the generator every other cpu (two cpus: sut=0, gen=1; eight: sut=0, gen=1-7); so results of an 8-core and a
 * 64-core machine measure the same SUT allotment, and the generator grows with the machine. A machine too
 * small for the allotment keeps one cpu for the generator. Otherwise not pinned, with the reason.
 * @param {import('./parse-pin.js').PinRequest} request `--pin` as parsePin read it
 * @param {Machine} [machine]
 * @param {{ sutCpus?: number }} [allotment] the SUT's cpus under `auto`; 1 by default
 * @returns {PinPlan}
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION when explicit cpus were asked on a machine that cannot pin
 */
export function resolvePinning (request, machine = currentMachine(), { sutCpus = 1 } = {}) {
  const off = (/** @type {string} */ reason) => ({ mode: request.mode, pinned: false, sutCpus: null, generatorCpus: null, reason })
  if (request.mode === 'off') return off('`--pin off`')
  const cannot = machine.platform !== 'linux'
    ? `pinning needs Linux (this is ${machine.platform})`
    : machine.tasksetPath === null ? 'pinning needs `taskset` on PATH (apt-get install util-linux)' : null
  if (request.mode === 'explicit') {
    if (cannot) {
      throw new DynoError(
        'DYNO_ERR_INVALID_OPTION',
        `\`--pin sut=${formatCpuList(request.sutCpus)},gen=${formatCpuList(request.generatorCpus)}\` cannot be honoured: ${cannot}; use ` +
          '`--pin off`'
      )
    }
    return { mode: 'explicit', pinned: true, sutCpus: request.sutCpus, generatorCpus: request.generatorCpus, reason: null }
  }
  if (cannot) return off(cannot)
  if (machine.cpus.length < 2) {
    return off(`pinning needs two cpus or more; dyno may use ${machine.cpus.length} (${formatCpuList(machine.cpus)})`)
  }
  const given = Math.min(sutCpus, machine.cpus.length - 1)
  return {
    mode: 'auto',
    pinned: true,
    sutCpus: machine.cpus.slice(0, given),
    generatorCpus: machine.cpus.slice(given),
    reason: null,
    sutCpuAllotment: sutCpus
  }
}

/**
 * Where the SUT and the generator run when the SUT has a host of its own (`--sut-host`): under `auto` the SUT gets the first
 * `sutCpus` cpus of its host (nothing else of the run is there, so even a one-cpu host gives it its allotment), and the generator
 * every cpu of this machine. The two sets are cpus of two machines: `--pin sut=…,gen=…`, which names cpus of one, is refused.
 * @param {import('./parse-pin.js').PinRequest} request
 * @param {Machine} sutMachine the SUT's host
 * @param {Machine} loadMachine this machine
 * @param {{ sutCpus: number, sutHostName: string }} allotment the SUT's cpus there (`--sut-cpus`), and the host's name for messages
 * @returns {PinPlan}
 */
export function resolveSplitPinning (request, sutMachine, loadMachine, { sutCpus, sutHostName }) {
  const off = (/** @type {string} */ reason) => ({ mode: request.mode, pinned: false, sutCpus: null, generatorCpus: null, reason })
  if (request.mode === 'off') return off('`--pin off`')
  if (request.mode === 'explicit') {
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      `\`--pin sut=${formatCpuList(request.sutCpus)},gen=${formatCpuList(request.generatorCpus)}\` ` +
        'names cpus of one machine; with `--sut-host` the SUT and the generator are on two: use `--pin auto` (the SUT gets the first ' +
        '`--sut-cpus` cpus of its host, the generator every cpu here) or `--pin off`'
    )
  }
  if (sutMachine.platform !== 'linux') return off(`pinning needs Linux on ${sutHostName} (it runs ${sutMachine.platform})`)
  if (sutMachine.tasksetPath === null) return off(`pinning needs \`taskset\` on ${sutHostName} (apt-get install util-linux)`)
  const here = loadMachine.platform === 'linux' && loadMachine.tasksetPath !== null ? loadMachine.cpus : null
  return {
    mode: 'auto',
    pinned: true,
    sutCpus: sutMachine.cpus.slice(0, Math.min(sutCpus, sutMachine.cpus.length)),
    generatorCpus: here,
    reason: null,
    sutCpuAllotment: sutCpus
  }
}
