// @ts-check
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const require = createRequire(import.meta.url)
const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

// pnpm puts node_modules/.pnpm/node_modules/.bin on the PATH of every dependency's install script: a
// `node` there would build native addons (better-sqlite3, sqlite3) with Node 24 for a harness on Node 20.
it.each(['node-20', 'node-22', 'node-24'])('%s declares no `node` bin (runtimes/patches/node.patch), so none is hoisted', (alias) => {
  const manifest = JSON.parse(readFileSync(require.resolve(`${alias}/package.json`), 'utf8'))
  expect(manifest.bin).toBeUndefined()
})

it('no `node` shim sits on the PATH of install scripts', () => {
  expect(existsSync(`${repoRoot}node_modules/.pnpm/node_modules/.bin/node`)).toBe(false)
  expect(existsSync(`${repoRoot}node_modules/.bin/node`)).toBe(false)
})
