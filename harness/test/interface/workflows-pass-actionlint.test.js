// @ts-check
// The GitHub workflows are checked by actionlint (the Go tool, built once through the Go module proxy
// into node_modules/.cache): syntax, expressions, action inputs and the shell scripts of `run` steps.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { missing, skipNote } from '../support/needs.js'

const ACTIONLINT_VERSION = 'v1.7.12'
const TOOLS_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'dyno-tools', `actionlint-${ACTIONLINT_VERSION}`)
const ACTIONLINT = join(TOOLS_DIR, 'actionlint')
const WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/bench.yml', '.github/workflows/suite.yml', '.github/workflows/site.yml',
  '.github/workflows/dataset.yml']

const absent = missing('go')

describe.skipIf(absent)(`workflows${skipNote(absent)}`, () => {
  it('pass actionlint', () => {
    if (!existsSync(ACTIONLINT)) {
      execFileSync('go', ['install', `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`], {
        env: { ...process.env, GOBIN: TOOLS_DIR }, stdio: 'pipe'
      })
    }
    const result = spawnSync(ACTIONLINT, ['-no-color', ...WORKFLOWS], { cwd: REPO_ROOT, encoding: 'utf8' })
    expect(result.stdout + result.stderr).toBe('')
    expect(result.status).toBe(0)
  }, 180_000)

  it('catches a broken workflow (the check is real)', () => {
    const broken = readFileSync(join(REPO_ROOT, WORKFLOWS[1]), 'utf8')
      .replace('runs-on: ubuntu-24.04', `runs-on: ubuntu-24.04\n    timeout-minutes: $${'{{'} inputs.nope }}`)
    const result = spawnSync(ACTIONLINT, ['-no-color', '-'], { cwd: REPO_ROOT, input: broken, encoding: 'utf8' })
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/nope/)
  })

  it('benchmarks pull requests with compare-commits on the ci profile, split over a matrix, and fails on a regression', () => {
    const bench = readFileSync(join(REPO_ROOT, WORKFLOWS[1]), 'utf8')
    const script = (/** @type {string} */ name) => readFileSync(join(REPO_ROOT, '.github', 'scripts', name), 'utf8')
    expect(bench).toMatch(/pull_request:/)
    expect(bench).toMatch(/workflow_dispatch:/)
    expect(bench).toMatch(/fetch-depth: 0/)
    expect(bench).toMatch(/part: \$\{\{ fromJSON\(needs\.plan\.outputs\.parts\) \}\}/)
    expect(bench).toMatch(/run: bash \.github\/scripts\/bench-plan\.sh/)
    expect(bench).toMatch(/bash \.github\/scripts\/bench-part\.sh/)
    expect(bench).toMatch(/bash \.github\/scripts\/bench-merge\.sh/)
    expect(bench).toMatch(/upload-artifact/)
    expect(bench).toMatch(/download-artifact/)
    expect(script('bench-part.sh')).toMatch(/compare-commits "\$BASE_REF" "\$HEAD_REF" --shard "\$PART\/\$COUNT" \\\n\s+--profile ci/)
    expect(script('bench-merge.sh')).toMatch(/--fail-on regression/)
    expect(script('bench-merge.sh')).toMatch(/GITHUB_STEP_SUMMARY/)
    expect(readFileSync(join(REPO_ROOT, WORKFLOWS[0]), 'utf8')).toMatch(/run: bash \.ci\/run/)
  })

  it('installs the Go that every go.mod names (the Go SUTs build with GOTOOLCHAIN=local)', () => {
    const ci = readFileSync(join(REPO_ROOT, WORKFLOWS[0]), 'utf8')
    const file = /go-version-file: (\S+)/.exec(ci)?.[1]
    expect(file, 'ci.yml takes Go\'s version from a go.mod').toBeDefined()
    const goLine = (/** @type {string} */ path) => /^go (\S+)$/m.exec(readFileSync(join(REPO_ROOT, path), 'utf8'))?.[1]
    const named = goLine(/** @type {string} */ (file))
    expect(named).toMatch(/^\d+\.\d+/)
    const goMods = readdirSync(join(REPO_ROOT, 'packages'))
      .map((name) => join('packages', name, 'go.mod'))
      .filter((path) => existsSync(join(REPO_ROOT, path)))
    expect(goMods.length).toBeGreaterThan(0)
    for (const path of goMods) expect(goLine(path), path).toBe(named)
  })
})
