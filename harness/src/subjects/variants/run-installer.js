// @ts-check
// The install of a variant's copy: the installer run in the copy, its lines passed on, and a failure told with its last lines.
import { runChild } from '../../platform/process/child-command.js'
import { DynoError } from '../../platform/errors.js'

/**
 * @param {string} command pnpm or npm @param {string[]} args
 * @param {{ cwd: string, signal?: AbortSignal, onLine?: (line: string) => void }} options
 * @returns {Promise<void>}
 * @throws {DynoError} DYNO_ERR_VARIANT_INSTALL with the installer's last lines
 */
export async function runInstaller (command, args, { cwd, signal, onLine = () => {} }) {
  const outcome = await runChild(command, args, { cwd, signal, onLine }).catch((error) => ({
    code: null,
    signal: null,
    tail: [`could not start ${command}: ${error.message} (install ${command === 'pnpm' ? 'pnpm 10: npm i -g pnpm@10' : 'Node with npm'})`]
  }))
  if (outcome.code !== 0) {
    throw new DynoError(
      'DYNO_ERR_VARIANT_INSTALL',
      `${command} ${args.join(' ')} in ${cwd} failed (exit ${outcome.code ?? outcome.signal}); its last lines:\n${outcome.tail.join('\n')}`
    )
  }
}
