// @ts-check
// A maintainer's question, asked of real code: fastify's installed package copied into two temporary "checkouts", one given a
// deliberate small slowdown in its request path (a loop of 150 steps in handleRequest, about 3% more instructions per request).
// Counted as `path:` variants against the release from the registry, compare-versions calls the slowed copy regressed and the
// unchanged copy unchanged; the framework action's script, run here as a workflow runs it against two checkouts, fails on it.
import { cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { outputRead } from '../../src/platform/process/output-read.js'

trackRuns()
const absent = missing('registry', 'valgrind')
const work = mkdtempSync(join(tmpdir(), 'dyno-framework-checkouts-'))
const cacheDir = join(work, 'cache')
const installed = realpathSync(join(REPO_ROOT, 'packages', 'fastify', 'node_modules', 'fastify'))
const release = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version

/** @param {string} name @param {boolean} slowed @returns {string} a copy of the installed fastify, as a checkout */
function checkout (name, slowed) {
  const dir = join(work, name)
  cpSync(installed, dir, { recursive: true })
  if (slowed) {
    const file = join(dir, 'lib', 'handle-request.js')
    const source = readFileSync(file, 'utf8')
    const slowedSource = source.replace(
      'function handleRequest (err, request, reply) {\n',
      'function handleRequest (err, request, reply) {\n  for (let i = 0; i < 150; i++) globalThis.__dynoSink = ' +
        '(globalThis.__dynoSink | 0) + i\n'
    )
    expect(slowedSource).not.toBe(source)
    writeFileSync(file, slowedSource)
  }
  return dir
}

/** @param {string} text the markdown of a comparison @returns {Record<string, string>} each scenario's verdict */
const verdicts = (text) => Object.fromEntries([...text.matchAll(/^\| fastify \| (\S+) \|.*\| \**(\w+)\** \|$/gm)]
  .map(([, scenario, verdict]) => [scenario, verdict]))

describe.skipIf(absent)(`a framework's checkout against its release${skipNote(absent)}`, () => {
  const unchanged = checkout('fastify-unchanged', false)
  const slowed = checkout('fastify-slowed', true)
  // The test's own count cache: the release and each copy are counted once, and each later comparison reuses those counts, as a
  // maintainer's would (a count does not depend on the machine's speed; a-cached-count-is-reused-only-as-dyno-wrote-it checks reuse).
  const counting = [
    '--measure',
    'instructions',
    // One scenario of the comparison's three (comparisons-count-instructions-where-valgrind-is-installed checks the three are its
    // default): the slowdown is in the path every request takes, and each scenario more is two counts more under valgrind.
    '--scenarios',
    'json',
    '--cache-dir',
    cacheDir,
    '--out',
    join(work, 'results'),
    '--format',
    'md'
  ]

  it('calls the unchanged copy unchanged and the slowed copy regressed, by instructions', async () => {
    const same = await runCli(['compare-versions', `fastify@${release}`, `fastify@path:${unchanged}`, ...counting], { timeoutMs: 400_000 })
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toMatch(
      new RegExp(`^Baseline \`fastify@${release.replace(/\./g, '\\.')}\` against candidate \`fastify@path:fastify-unchanged\``)
    )
    expect(verdicts(same.stdout)).toEqual({ json: 'unchanged' })

    const slower = await runCli(
      ['compare-versions', `fastify@${release}`, `fastify@path:${slowed}`, ...counting, '--fail-on', 'regression'],
      { timeoutMs: 400_000 }
    )
    expect(slower.code, slower.stderr).toBe(1)
    expect(verdicts(slower.stdout)).toEqual({ json: 'regressed' })
    expect(slower.stderr).toMatch(/--fail-on regression: fastify × json .*regressed \+?\d/)
  }, 900_000)

  it('the action\'s script, given the two checkouts as a workflow gives them, writes the summary and fails on the regression', async () => {
    const summary = join(work, 'summary.md')
    const outputs = join(work, 'outputs')
    const { code, stdout, stderr } = await new Promise((resolve, reject) => {
      const child = spawn('bash', [join(REPO_ROOT, '.github', 'scripts', 'framework-compare.sh')], {
        cwd: work,
        env: {
          ...process.env,
          GITHUB_WORKSPACE: work,
          GITHUB_STEP_SUMMARY: summary,
          GITHUB_OUTPUT: outputs,
          RUNNER_TEMP: work,
          SUT: 'fastify',
          BASE_PATH: 'fastify-unchanged',
          HEAD_PATH: 'fastify-slowed',
          SCENARIOS: 'json',
          MEASURE: 'instructions',
          // dyno is installed here already (and installing it again would change the tree the other tests run from).
          DYNO_SKIP_INSTALL: 'true',
          DYNO_ARGS: `--cache-dir ${cacheDir} --out ${join(work, 'results')}`
        },
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let out = ''
      let err = ''
      child.stdout.on('data', (chunk) => { out += chunk })
      child.stderr.on('data', (chunk) => { err += chunk })
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        reject(new Error(`the action's script did not finish; stderr:\n${err}`))
      }, 400_000)
      child.on('exit', async (exitCode) => {
        await outputRead([child.stdout, child.stderr])
        clearTimeout(timer)
        resolve({ code: exitCode, stdout: out, stderr: err })
      })
    })
    expect(code, stderr).toBe(1)
    expect(stdout).toMatch(/^Baseline `fastify@path:fastify-unchanged` against candidate `fastify@path:fastify-slowed`/)
    expect(verdicts(stdout)).toEqual({ json: 'regressed' })
    expect(readFileSync(summary, 'utf8')).toBe(stdout)
    expect(readFileSync(outputs, 'utf8')).toBe(`comparison=${join(work, 'dyno-comparison.md')}\n`)
  }, 500_000)
})
