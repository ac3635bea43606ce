// @ts-check
// One of dyno's scripts run to its end on a host, under the host's process group handling (on a host reached over SSH, under
// the process guard: it ends with the session). Its answer is its reply (remote/script-reply.js): one line marked with a nonce drawn
// for this call, found among whatever else the host's login prints before and after it; the rest of its stdout is not kept.
import { join } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { REPO_ROOT } from '../paths.js'
import { outputRead } from '../process/output-read.js'
import { REPLY_NONCE_ENV, replyNonce, replyReader } from './remote/script-reply.js'

/**
 * @param {import('./host.js').Host} host
 * @param {string} script relative to the checkout's root; it answers with `writeReply` of remote/script-reply.js
 * @param {string[]} args
 * @param {{ label: string, env?: Record<string, string>, signal?: AbortSignal, stdinText?: string }} options signal: stops it; stdinText:
 *   written to its standard input (what must not be on a command line, where every user of the host can read it)
 * @returns {Promise<{ code: number | null, reply: { value: unknown } | null, stderr: string, lost: string | null }>} reply: what the script
 *   replied, null when no line of its stdout was its reply; lost: why its host went away, if it did
 */
export async function runNodeScript (host, script, args, { label, env = {}, signal, stdinText }) {
  const nonce = replyNonce()
  const { command, args: argv } = host.launchOn(process.execPath, [join(REPO_ROOT, script), ...args])
  const child = await host.spawnGroup({
    command,
    args: argv,
    cwd: REPO_ROOT,
    env: { ...env, [REPLY_NONCE_ENV]: nonce },
    label,
    ...(stdinText === undefined ? {} : { stdinText })
  })
  const reader = replyReader(nonce)
  const decoder = new StringDecoder('utf8')
  let stderr = ''
  child.stdout.on('data', (chunk) => reader.push(decoder.write(chunk)))
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const stop = () => { child.stop(5000).catch(() => {}) }
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const { code } = await child.exited
    await outputRead([child.stdout, child.stderr])
    await child.stop(5000).catch(() => {})
    reader.push(decoder.end())
    return { code, reply: reader.reply(), stderr, lost: child.lostReason() }
  } finally {
    signal?.removeEventListener('abort', stop)
  }
}
