// @ts-check
// A load engine is one folder under load/engines/ and a line in its registry: a run is handed the engine once, as its
// descriptor, and nothing below looks an engine up by its name or asks which one it is. Proven with an engine dyno does not
// know (support/relay-engine/): handed to a run, it loads every cell, and the results record it as the descriptor says.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HARNESS_DIR, PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { relayedPlans, relayEngine } from '../support/relay-engine/relay-engine.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

describe('a new load engine', () => {
  it('loads every cell of a run it is handed, verified and judged as any engine\'s, and is recorded as its descriptor says', async () => {
    const before = relayedPlans.length
    const { written, index } = await runInTempDir({
      runs, suts: [loadSut(join(PACKAGES_DIR, 'node-http'))], scenarios: ['plaintext', 'json'], engine: relayEngine
    })
    expect(written.map((record) => `${record.scenario.name} ${record.status}`)).toEqual(['plaintext ok', 'json ok'])
    // Each cell's warm-up-less measured phase went through the relay, and its figures came back from it.
    expect(relayedPlans.slice(before).map((plan) => plan.phases.map((phase) => phase.name))).toEqual([['measure'], ['measure']])
    for (const record of written) {
      expect(record.load).toMatchObject({ engine: 'relay', engineVersion: '0.0.1-test' })
      expect(record.verification.passed).toBe(true)
      expect(record.summary.requests).toBeGreaterThan(0)
      expect(record.summary.mismatches).toBe(0)
    }
    expect(index.results).toHaveLength(2)
  })

  it("is the only place an engine is named: no file outside load/engines/ compares an engine's name or imports an engine's folder", () => {
    const src = join(HARNESS_DIR, 'src')
    const files = readdirSync(src, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => !relative(src, file).startsWith('load/engines/'))
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      expect(text, file).not.toMatch(/=== '(autocannon|wrk|native|undici-rate)'/)
      expect(text, file).not.toMatch(/from '[./]*load\/engines\/(autocannon|wrk|native)\//)
    }
  })

  afterAll(() => runs.expectNoneLeft(expect))
})
