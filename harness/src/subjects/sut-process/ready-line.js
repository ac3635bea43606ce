// @ts-check
// A SUT of dyno's own says it listens with one JSON line on stdout, announcing the port it bound (PORT=0) and what it serves there.
import { DynoError } from '../../platform/errors.js'
import { describeExit } from './exit-text.js'
import { maskSecrets } from '../../platform/util/mask-secrets.js'

/** @typedef {import('./start-sut.js').ReadyLine} ReadyLine @typedef {import('./readiness.js').ReadyWait} ReadyWait */

/**
 * @param {string} line
 * @returns {ReadyLine | null}
 */
function parseReadyLine (line) {
  if (!line.startsWith('{')) return null
  try {
    const parsed = JSON.parse(line)
    return parsed && parsed.event === 'ready' ? parsed : null
  } catch {
    return null
  }
}

/**
 * @param {string[]} lines other lines the SUT printed @param {string} partial what it printed after its last newline
 * @returns {string} what a reader needs to tell a SUT that printed nothing from one that printed something else, or half a line: each
 *   line masked as the stderr tail is (a SUT may print the URL of its database) and quoted, its control characters escaped
 */
function stdoutSoFar (lines, partial) {
  const all = [...lines, ...(partial ? [`${partial.slice(0, 200)} (no newline)`] : [])]
  return all.length === 0 ? 'nothing on stdout; ' : `on stdout: ${all.map((line) => JSON.stringify(maskSecrets(line))).join(', ')}; `
}

/**
 * @param {import('../../platform/hosts/host.js').HostProcess} child
 * @param {ReadyWait}
 *   context
 * @returns {Promise<ReadyLine>}
 */
export function waitForReadyLine (child, { sut, stderr, readyTimeoutSec, signal }) {
  return new Promise((resolve, reject) => {
    let buffered = ''
    /** @type {string[]} what the SUT printed on stdout that was not a ready line, the last few lines */
    const otherLines = []
    const cleanup = () => {
      clearTimeout(timer)
      child.stdout.off('data', onData)
      signal?.removeEventListener('abort', onAbort)
    }
    const fail = (/** @type {DynoError} */ error) => { cleanup(); reject(error) }
    const onData = (/** @type {Buffer} */ chunk) => {
      buffered += chunk.toString()
      let newline
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline).trim()
        buffered = buffered.slice(newline + 1)
        const ready = parseReadyLine(line)
        if (!ready) {
          otherLines.push(line.slice(0, 200))
          otherLines.splice(0, otherLines.length - 3)
          continue
        }
        if (!Number.isInteger(ready.port) || ready.port < 1 || ready.port > 65535) {
          return fail(new DynoError('DYNO_ERR_SUT_NOT_READY', `SUT ${sut.name} announced an invalid port in its ready line: ${line}`))
        }
        cleanup()
        return resolve(ready)
      }
    }
    const onAbort = () =>
      fail(new DynoError('DYNO_ERR_INTERRUPTED', `interrupted by ${String(signal?.reason)} while waiting for SUT ${sut.name} to be ready`))
    const timer = setTimeout(() => fail(new DynoError('DYNO_ERR_SUT_NOT_READY',
      `SUT ${sut.name} printed no ready line within ${readyTimeoutSec} s; ${stdoutSoFar(otherLines, buffered)}last stderr lines:\n` +
        stderr.format(),
      { details: { stderrTail: stderr.snapshot() } })), readyTimeoutSec * 1000)
    child.stdout.on('data', onData)
    child.exited.then(({ code, signal: exitSignal }) => fail(new DynoError('DYNO_ERR_SUT_EXITED',
      `SUT ${sut.name} exited before it was ready (${describeExit(code, exitSignal)}); last stderr lines:\n${stderr.format()}`,
      { details: { stderrTail: stderr.snapshot(), exitCode: code, exitSignal } })))
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
}
