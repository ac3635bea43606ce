#!/usr/bin/env node
// @ts-check
// Run by dyno on a SUT host of its own (`--sut-host` with `--measure instructions`): counts one Node SUT's instructions there, as
// count-instructions.js does here, and replies with the count (or the error that stopped it). The requests come from
// that host's own loopback: a count does not involve the link.
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { isDynoError } from '../../../platform/errors.js'
import { writeReply } from '../../../platform/hosts/remote/script-reply.js'
import { PACKAGES_DIR } from '../../../platform/paths.js'
import { loadSut } from '../../../subjects/suts/discover-suts.js'
import { countInstructions } from './count-instructions.js'

/**
 * @typedef {object} CountOnHost what dyno asks for
 * @property {string} sut a SUT's name
 * @property {string} scenario a scenario's name
 * @property {Record<string, string>} env
 * @property {number} warmupRequests @property {number} [warmupBoundRequests]
 * @property {number} windowRequests @property {number} windows @property {number} concurrency
 * @property {number} readyTimeoutSec
 * @property {{ caFile: string, serverName: string } | null} [trust] over TLS: the run's certificate as that host has it
 */

/** @param {CountOnHost} spec @returns {string} one shell-safe argument */
export const encodeCountSpec = (spec) => Buffer.from(JSON.stringify(spec)).toString('base64url')

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-3).join('/'))
if (isMain) {
  // What to count comes on stdin (it holds the SUT's environment, secrets included), never on the command line.
  let text = ''
  for await (const chunk of process.stdin) text += chunk
  /** @type {CountOnHost} */
  const spec = JSON.parse(Buffer.from(text.trim(), 'base64url').toString('utf8'))
  const stop = new AbortController()
  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) process.once(signal, () => stop.abort(signal))
  try {
    const scenario = SCENARIOS.find((candidate) => candidate.name === spec.scenario)
    if (!scenario) throw new Error(`no scenario named ${spec.scenario}`)
    const sut = { ...loadSut(join(PACKAGES_DIR, spec.sut)), runtime: { name: 'node', kind: 'node', version: process.version } }
    const count = await countInstructions({ ...spec, sut: /** @type {any} */ (sut), scenario, signal: stop.signal })
    writeReply({ count })
  } catch (error) {
    const code = isDynoError(error) ? error.code : 'DYNO_ERR_SUT_EXITED'
    writeReply({ error: { code, message: /** @type {Error} */ (error).message } })
    process.exitCode = 1
  }
}
