// @ts-check
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { REPO_ROOT } from '../src/paths.js'
import { discoverSuts } from '../src/suts/discover-suts.js'

const rootScripts = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts

it.each(discoverSuts().map((sut) => [sut.name, sut]))('%s has a start script, a README, an exact framework pin and a bench:<name> script', (name, sut) => {
  const manifest = JSON.parse(readFileSync(join(sut.dir, 'package.json'), 'utf8'))
  expect(manifest.scripts.start).toMatch(/^node /)
  expect(manifest.scripts.start).toContain(manifest.dyno.start)
  expect(readFileSync(join(sut.dir, 'README.md'), 'utf8')).toMatch(/\S/)
  if (!sut.framework.startsWith('node:')) {
    expect(sut.frameworkVersion, `${sut.framework} is installed`).not.toBeNull()
    const pinned = { ...manifest.dependencies }[sut.framework]
    expect(pinned, `${sut.framework} is pinned exactly`).toMatch(/^(\d+\.\d+\.\d+(-[\w.]+)?|npm:[@\w/.-]+@\d+\.\d+\.\d+(-[\w.]+)?)$/)
  }
  expect(rootScripts[`bench:${name}`]).toBe(`node harness/bin/dyno.js run --frameworks ${name}`)
})
