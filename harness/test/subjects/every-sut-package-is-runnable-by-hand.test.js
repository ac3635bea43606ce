// @ts-check
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { discoverSuts } from '../../src/subjects/suts/discover-suts.js'
import { skipUnless, toolchainOf } from '../support/needs.js'

const rootScripts = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts

/** How `pnpm start` of each kind of SUT begins: the runtime, or the built server itself. */
const START_PREFIX = { node: /^node /, bun: /^bun /, deno: /^deno run /, go: /^bin\//, python: /^\.venv\/bin\// }

it.each(discoverSuts().map((sut) => [sut.name, sut]))(
  '%s has a start script, a README, an exact framework pin and a bench:<name> script',
  (name, sut) => {
    const manifest = JSON.parse(readFileSync(join(sut.dir, 'package.json'), 'utf8'))
    expect(manifest.scripts.start).toMatch(START_PREFIX[sut.runtimeKind])
    if (sut.command) expect(manifest.scripts.start).toBe(manifest.dyno.command.join(' '))
    else expect(manifest.scripts.start).toContain(manifest.dyno.start)
    expect(readFileSync(join(sut.dir, 'README.md'), 'utf8')).toMatch(/\S/)
    if (sut.buildScript) {
      // Built by `pnpm install` (prepare) and again, when out of date, before first use.
      expect(manifest.scripts.prepare).toBe(`node ${manifest.dyno.build}`)
    } else if (!sut.framework.startsWith('node:')) {
      expect(sut.frameworkVersion, `${sut.framework} is installed`).not.toBeNull()
      const pinned = { ...manifest.dependencies }[sut.framework]
      // bun-native and deno-native take their runtime from the workspace catalog, pinned exactly there.
      expect(pinned, `${sut.framework} is pinned exactly`).toMatch(
        /^(\d+\.\d+\.\d+(-[\w.]+)?|npm:[@\w/.-]+@\d+\.\d+\.\d+(-[\w.]+)?|catalog:)$/
      )
    }
    expect(rootScripts[`bench:${name}`]).toBe(`node harness/bin/dyno.js run --frameworks ${name}`)
  }
)

it.for(discoverSuts().filter((sut) => sut.buildScript).map((sut) => /** @type {const} */ ([sut.name, sut])))(
  '%s was built by pnpm install and recorded its framework version', ([, sut], context) => {
    skipUnless(context, ...toolchainOf(sut))
    expect(sut.frameworkVersion).toMatch(/^\d+\.\d+/)
  })

it('has a bench:<name> script for each SUT and for nothing else', () => {
  const benchScripts = Object.keys(rootScripts)
    .filter((script) => script.startsWith('bench:'))
    .map((script) => script.slice('bench:'.length))
  expect(benchScripts.sort()).toEqual(discoverSuts().map((sut) => sut.name).sort())
})
