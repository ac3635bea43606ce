// @ts-check
// A kind of host is one folder under hosts/ and a line in hosts/host-kinds.js: the rest of dyno asks a host what it shares with
// this machine (files, network, processes), never which kind it is. Proven with a kind dyno does not know (support/apart-host/):
// named, parsed and connected through the registry's functions, it runs a SUT and its SQLite service, which dyno makes through
// the host's checkout since the host says it has files of its own, and the run records it as another machine.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { connectHost, HOST_KINDS, parseHost } from '../../src/platform/hosts/host-kinds.js'
import { HARNESS_DIR, PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { apartHostKind } from '../support/apart-host/apart-kind.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const KINDS = [...HOST_KINDS, apartHostKind]

describe('a new kind of host', () => {
  it('is named through the registry, and refused with every form when the registry does not list it', () => {
    expect(parseHost('apart://lab', '--sut-host', KINDS)).toEqual({ kind: 'apart', url: 'apart://lab' })
    expect(() => parseHost('apart://lab', '--sut-host')).toThrowError(
      new RegExp(String.raw`\`--sut-host\` must name a host: \`local\` \(this machine\) or ` +
        String.raw`\`ssh:\/\/\[user@\]host\[:port\]\[\/absolute\/dir\]\` .*, got \`apart:\/\/lab\``)
    )
  })

  it('runs a SUT and the service it needs on what the host answers, recorded as another machine', async () => {
    const host = await connectHost(parseHost('apart://lab', '--sut-host', KINDS), 'sut', KINDS)
    const { written, index } = await runInTempDir({
      runs, suts: [loadSut(join(PACKAGES_DIR, 'node-http'))], scenarios: ['json', 'sqlite'], sutHost: host
    })
    expect(written.map((record) => `${record.scenario.name} ${record.status}`)).toEqual(['json ok', 'sqlite ok'])
    for (const record of written) expect(record.verification.passed).toBe(true)
    expect(index.env.hosts.map((/** @type {{ name: string, role: string }} */ entry) => `${entry.name} ${entry.role}`)).toEqual([
      'apart://lab sut',
      'local load'
    ])
    // A host with files of its own gets its database made by its checkout, in its own temporary directory.
    expect(index.env.services.sqlite.url).toMatch(/^apart:\/\/lab:\/.*dyno-sqlite-.*\/world\.sqlite$/)
  })

  it('is the only place a kind is known: no caller branches on a kind or imports a kind\'s folder', () => {
    const src = join(HARNESS_DIR, 'src')
    const files = readdirSync(src, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js')).map((entry) => join(entry.parentPath, entry.name))
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      expect(text, file).not.toMatch(/\.remote\b/)
      if (!relative(src, file).startsWith('platform/hosts/')) expect(text, file).not.toMatch(/from '[./]*hosts\/(local|ssh)\//)
    }
  })

  afterAll(() => runs.expectNoneLeft(expect))
})
