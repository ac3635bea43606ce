// @ts-check
// Where a run's processes go: the SUT's host and the load's, and the cpus each gets.
import { DEFAULT_PIN } from '../../platform/pinning/parse-pin.js'
import { wholeNumber } from '../../platform/options/option-parsers.js'
import { hostList, hostTarget, pinOption } from '../cli/option-parsers.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** @type {OptionSpec} */
export const SUT_HOST = {
  field: 'sutHost',
  flag: '--sut-host <url>',
  description: 'Run the SUTs, and the services their scenarios need, on another host reached with your OpenSSH in batch mode ' +
    '(`ssh://[user@]host[:port][/dir]`, dir the checkout `dyno host prepare` made there, `~/dyno` by default); verification and load ' +
    'come from this machine, whose cpus all go to the generator (docs/hosts.md); `local` is this machine, as without the option',
  parse: hostTarget,
  default: null,
  defaultText: 'this machine'
}

/** @type {OptionSpec} */
export const LOAD_HOSTS = {
  field: 'loadHosts',
  flag: '--load-hosts <hosts>',
  description: 'With --sut-host and --engine native: run the engine on each of these hosts at once, comma-separated (`local` for this ' +
    'machine, `ssh://…` for a host `dyno host prepare` made ready), each with its share of the connections, all starting together; their ' +
    'counts are merged exactly and the generator-bound guard judges each host',
  parse: hostList,
  default: null,
  defaultText: 'this machine'
}

/** @type {OptionSpec} */
export const PIN = {
  field: 'pin',
  flag: '--pin <mode>',
  description:
    'CPU pinning with taskset: auto (Linux, 2 cpus or more: the SUT on the first --sut-cpus cpus, the load generator on every other; ' +
    'otherwise off, with the reason), off, or sut=<cpus>,gen=<cpus> (e.g. sut=0-2,gen=3); recorded in load.pinning',
  parse: pinOption,
  default: DEFAULT_PIN,
  defaultText: 'auto'
}

/** @type {OptionSpec} */
export const SUT_CPUS = {
  field: 'sutCpus',
  flag: '--sut-cpus <n>',
  description: 'CPUs the SUT gets under --pin auto, whatever the machine\'s size; the generator gets every other cpu',
  parse: wholeNumber({ min: 1, max: 1024 }),
  derive: (values) => values.workers,
  defaultText: 'one per server worker, --workers'
}
