// @ts-check
// PLACEHOLDER written by the lead so the harness can import this package; the runtimes helper replaces it
// with the real resolver (npm-installed node@20/22/24, bun, deno).
export const RUNTIME_NAMES = ['node', 'node@20', 'node@22', 'node@24', 'bun', 'deno']

/**
 * @param {string} name
 * @returns {{ name: string, kind: 'node' | 'bun' | 'deno', executable: string, args: string[], version: string }}
 */
export function resolveRuntime (name) {
  if (name === 'node') return { name, kind: 'node', executable: process.execPath, args: [], version: process.version }
  throw new Error(`runtime ${name} is not installed yet`)
}
