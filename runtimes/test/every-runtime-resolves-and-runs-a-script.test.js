// @ts-check
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { RUNTIME_NAMES, resolveRuntime } from '../src/index.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))
const script = fileURLToPath(new URL('./fixtures/which-runtime.js', import.meta.url))
const VERSION = { node: /^v\d+\.\d+\.\d+$/, bun: /^\d+\.\d+\.\d+$/, deno: /^\d+\.\d+\.\d+$/ }

describe.each(RUNTIME_NAMES.map((name) => [name]))('%s', (name) => {
  it('resolves to a binary with its version, and runs a script the way the harness starts a SUT', () => {
    const runtime = resolveRuntime(name)
    expect(runtime.name).toBe(name)
    expect(isAbsolute(runtime.executable) && existsSync(runtime.executable)).toBe(true)
    expect(runtime.version).toMatch(VERSION[runtime.kind])
    if (name.startsWith('node@')) expect(runtime.version.startsWith(`v${name.slice('node@'.length)}.`)).toBe(true)

    const before = readdirSync(fixtures).sort()
    const run = spawnSync(runtime.executable, [...runtime.args, script], { cwd: fixtures, encoding: 'utf8', timeout: 30_000 })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const printed = JSON.parse(run.stdout)
    expect(printed.kind).toBe(runtime.kind)
    expect(printed.version).toBe(runtime.version)
    // Nothing is written into the directory it runs in (Deno would otherwise be free to add a deno.lock).
    expect(readdirSync(fixtures).sort()).toEqual(before)
  })

  it('answers from its cache the second time', () => {
    expect(resolveRuntime(name)).toBe(resolveRuntime(name))
  })
})

it('`node` is the Node that runs the caller', () => {
  expect(resolveRuntime('node')).toMatchObject({ kind: 'node', executable: process.execPath, args: [], version: process.version })
})
