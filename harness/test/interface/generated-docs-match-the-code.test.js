// @ts-check
// docs/cli.md is written from the option table and the load profiles (`pnpm docs:write`): the committed file must be
// what the code writes now, so a new option or a changed default cannot leave the reference behind.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOAD_PROFILES } from '@dyno/scenarios'
import { COMMAND_OPTIONS } from '../../src/interface/cli/command-table.js'
import { COMPARE_DEFAULTS } from '../../src/reports/compare/compare-defaults.js'
import { pairsNeeded } from '../../src/judging/stats/wilcoxon-signed-rank.js'
import { cliReference } from '../../src/interface/docs/cli-reference.js'
import { REPO_ROOT } from '../../src/platform/paths.js'

describe('generated documents', () => {
  it('docs/cli.md is up to date (run `pnpm docs:write` after changing an option or a profile)', () => {
    expect(readFileSync(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8')).toBe(cliReference())
  })

  it('names every flag of every command', () => {
    const text = cliReference()
    for (const [command, specs] of Object.entries(COMMAND_OPTIONS)) {
      expect(text).toContain(`## dyno ${command}`)
      for (const spec of specs) expect(text).toContain(`\`${spec.flag}\``)
    }
  })
})

describe('numbers kept in data', () => {
  it('the ci profile repeats as many times as the signed-rank test needs pairs at the default alpha', () => {
    expect(LOAD_PROFILES.ci.repeats).toBe(pairsNeeded(COMPARE_DEFAULTS.alpha))
  })
})
