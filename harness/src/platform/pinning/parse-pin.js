// @ts-check
// `--pin auto|off|sut=<cpus>,gen=<cpus>`: where the SUT and the load generator may run.
import { DynoError } from '../errors.js'
import { formatCpuList, parseCpuList } from './cpu-list.js'

/**
 * @typedef {{ mode: 'auto' } | { mode: 'off' } | { mode: 'explicit', sutCpus: number[], generatorCpus: number[] }} PinRequest
 */

/** @type {PinRequest} `--pin auto` */
export const DEFAULT_PIN = Object.freeze({ mode: 'auto' })

/**
 * @param {unknown} raw
 * @param {string} flag
 * @param {number[]} cpus the cpus that may be named
 * @returns {PinRequest}
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION naming the bad value and what is allowed
 */
export function parsePin (raw, flag, cpus) {
  const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : ''
  const available = formatCpuList(cpus)
  const invalid = (/** @type {string} */ what) => new DynoError('DYNO_ERR_INVALID_OPTION', `\`${flag}\` ${what}, got \`${String(raw)}\``)
  const shape = 'must be `auto`, `off` or `sut=<cpus>,gen=<cpus>` with cpus written `0`, `0-1` or `0,2` from this machine\'s ' +
    `cpus ${available}`
  if (text === 'auto') return { mode: 'auto' }
  if (text === 'off') return { mode: 'off' }

  // `sut=0,2,gen=1`: a comma separates cpus and the two sets alike; `<key>=` starts a set.
  /** @type {Record<string, string[]>} */
  const sets = {}
  /** @type {string | null} */
  let key = null
  for (const part of text.split(',')) {
    const assignment = /^\s*([a-z]+)\s*=(.*)$/.exec(part)
    if (assignment) {
      key = assignment[1]
      if (key !== 'sut' && key !== 'gen') throw invalid(`${shape}; \`${key}=\` is not one of \`sut=\`, \`gen=\``)
      if (sets[key]) throw invalid(`names \`${key}=\` twice`)
      sets[key] = [assignment[2]]
    } else if (key) {
      sets[key].push(part)
    } else {
      throw invalid(shape)
    }
  }
  if (!sets.sut || !sets.gen) throw invalid(`${shape}; both \`sut=\` and \`gen=\` are needed`)
  const sutCpus = parseCpuList(sets.sut.join(','))
  const generatorCpus = parseCpuList(sets.gen.join(','))
  if (!sutCpus || !generatorCpus) throw invalid(shape)
  for (const cpu of [...sutCpus, ...generatorCpus]) {
    if (!cpus.includes(cpu)) throw invalid(`names cpu ${cpu}, which is not one of this machine's cpus (${available})`)
  }
  const shared = sutCpus.filter((cpu) => generatorCpus.includes(cpu))
  if (shared.length > 0) {
    throw invalid(
      `gives cpu ${formatCpuList(shared)} to both the SUT and the load generator; the two sets must not overlap (cpus ${available})`
    )
  }
  return { mode: 'explicit', sutCpus, generatorCpus }
}
