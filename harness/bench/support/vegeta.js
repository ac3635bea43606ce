// @ts-check
// Vegeta (github.com/tsenart/vegeta, a constant-rate load tool in Go that no one here wrote) as the bench scripts that set the native
// engine's open model beside it run it: the pinned version, built from the Go module proxy (go-tools.js), and the target it attacks.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const execFileAsync = promisify(execFile)

/** The version every bench measures. */
export const VEGETA = { module: 'github.com/tsenart/vegeta/v12', version: 'v12.13.0', binary: 'vegeta' }

/**
 * The scenario's request as a Vegeta target (its `http` format on stdin): the method and URL on loopback, then its headers.
 * @param {import('@dyno/scenarios').Scenario} scenario @param {number} port
 */
export function vegetaTargets (scenario, port) {
  const headers = Object.entries(scenario.request.headers ?? {}).map(([name, value]) => `${name}: ${value}\n`).join('')
  return `${scenario.request.method} http://127.0.0.1:${port}${scenario.request.path}\n${headers}`
}

/** @param {string} vegeta the binary @returns {Promise<string>} the Go runtime it was built with, as `vegeta -version` says */
export async function vegetaRuntime (vegeta) {
  const { stdout } = await execFileAsync(vegeta, ['-version'])
  return (stdout.split('\n').find((line) => line.startsWith('Runtime')) ?? '').trim()
}
