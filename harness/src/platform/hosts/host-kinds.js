// @ts-check
// The kinds of host, each a folder here: what `--sut-host`, `--load-hosts` and `dyno host` accept, and how a host is reached.
// Everything that parses, connects or prepares a host goes through this list; adding a kind is a folder and a line below.
import { DynoError } from '../errors.js'
import { localHostKind } from './local/local-kind.js'
import { localHost } from './local/local-host.js'
import { sshHostKind } from './ssh/ssh-kind.js'

/** @type {readonly import('./host.js').HostKind[]} */
export const HOST_KINDS = Object.freeze([localHostKind, sshHostKind])

/** @param {readonly import('./host.js').HostKind[]} kinds @returns {string} every form, for a message */
export const hostForms = (kinds = HOST_KINDS) => kinds.map((kind) => kind.form).join(' or ')

/**
 * The host a user named, parsed by the kind it names.
 * @param {string} text @param {string} flag where it was given, named in errors
 * @param {readonly import('./host.js').HostKind[]} [kinds] the kinds to accept (all of them by default)
 * @returns {import('./host.js').HostTarget}
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION naming the value and every form allowed
 */
export function parseHost (text, flag, kinds = HOST_KINDS) {
  const kind = kinds.find((candidate) => candidate.names(String(text)))
  if (!kind) throw new DynoError('DYNO_ERR_INVALID_OPTION', `\`${flag}\` must name a host: ${hostForms(kinds)}, got \`${text}\``)
  return kind.parse(String(text), flag)
}

/**
 * @param {import('./host.js').HostTarget} target
 * @param {readonly import('./host.js').HostKind[]} [kinds]
 * @returns {import('./host.js').HostKind} the kind that parsed it
 */
export function kindOf (target, kinds = HOST_KINDS) {
  const kind = kinds.find((candidate) => candidate.name === target.kind)
  if (!kind) throw new Error(`no kind of host named ${target.kind}`)
  return kind
}

/**
 * A named host, reached and checked by its kind.
 * @param {import('./host.js').HostTarget} target @param {'sut' | 'load'} role
 * @param {readonly import('./host.js').HostKind[]} [kinds]
 * @returns {Promise<import('./host.js').Host>}
 */
export const connectHost = (target, role, kinds = HOST_KINDS) => kindOf(target, kinds).connect(target, role)

/**
 * This machine as a host, with the fingerprint the run already took: where a run's SUT and load are when no host is named.
 * @param {'sut' | 'load'} role @param {Record<string, unknown>} fingerprint
 * @returns {import('./host.js').Host}
 */
export const thisMachine = (role, fingerprint) => localHost(role, fingerprint)

/**
 * How a host a result names is said in a sentence.
 * @param {string} name a HostDescription's name
 * @returns {string}
 */
export const hostInWords = (name) => name === localHostKind.name ? 'this machine' : name
