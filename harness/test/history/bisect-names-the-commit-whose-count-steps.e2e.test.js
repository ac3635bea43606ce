// @ts-check
// dyno bisect over a framework's history it builds itself: the installed fastify in a git repository of its own, four commits on
// top, one of which adds a loop to every request. The bisection counts the good and the bad commit, then only the commits it must,
// each in a worktree of its own as the SUT's `path:` variant, and names the commit with the loop; run again, it counts nothing.
// Refs that are not commits, or not in order, are refused before anything is counted.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'

const runs = trackRuns()
const absent = missing('valgrind')
const work = mkdtempSync(join(tmpdir(), 'dyno-bisect-'))
const repo = join(work, 'fastify')
const COUNT = ['--count-windows', '6', '--count-requests', '500', '--cache-dir', join(work, 'cache'), '--out', join(work, 'runs')]

/** @param {string[]} args @returns {string} */
const git = (...args) =>
  execFileSync('git', ['-c', 'user.email=test@dyno', '-c', 'user.name=dyno test', ...args], { cwd: repo, encoding: 'utf8' }).trim()
/** @param {string} message @param {(text: string) => string} edit @param {string} file */
function commit (message, file, edit) {
  writeFileSync(join(repo, file), edit(readFileSync(join(repo, file), 'utf8')))
  git('commit', '-qam', message)
  return git('rev-parse', 'HEAD')
}

describe.skipIf(absent)(`dyno bisect${skipNote(absent)}`, () => {
  cpSync(join(PACKAGES_DIR, 'fastify', 'node_modules', 'fastify'), repo, { recursive: true, dereference: true })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-qm', 'fastify as installed')
  const good = git('rev-parse', 'HEAD')
  commit('docs: a note', 'README.md', (text) => `${text}\nA note.\n`)
  const loop = commit('handle-request: a loop on every request', 'lib/handle-request.js', (text) => text.replace(
    'function handleRequest (err, request, reply) {\n',
    'function handleRequest (err, request, reply) {\n  let sink = 0\n  for (let i = 0; i < 1000; i++) sink ^= i\n  request.sink = sink\n'))
  commit('docs: another note', 'README.md', (text) => `${text}\nAnother note.\n`)
  const bad = commit('docs: a third note', 'README.md', (text) => `${text}\nA third note.\n`)

  it('names the commit that adds a loop to every request, with its size, counting only what it must', async () => {
    const result = await runCli(['bisect', 'fastify', repo, good, bad, ...COUNT], { timeoutMs: 900_000 })
    for (const line of result.stderr.matchAll(/results in \S+\/([^/\s]+)$/gm)) runs.add(line[1])
    expect(result.code, result.stderr.slice(-2000)).toBe(0)
    expect(result.stdout).toMatch(
      new RegExp(`^first step: ${loop} handle-request: a loop on every request: \\+\\d+(\\.\\d+)?% .*, 4 commits counted$`, 'm')
    )
    const size = Number(/^first step: \S+ .*?: \+([\d.]+)% \(/m.exec(result.stdout)?.[1])
    expect(size).toBeGreaterThan(3)
    // The bad commit, then two halvings over the three commits before it.
    expect(result.stdout.split('\n').filter((line) => /^[0-9a-f]{12} /.test(line)).map((line) => line.split(/\s+/)[0])).toHaveLength(3)
    expect(git('worktree', 'list').split('\n')).toHaveLength(1)
  }, 900_000)

  it('counts nothing the second time: every count comes from the cache', async () => {
    const result = await runCli(['bisect', 'fastify', repo, good, bad, ...COUNT], { timeoutMs: 300_000 })
    for (const line of result.stderr.matchAll(/results in \S+\/([^/\s]+)$/gm)) runs.add(line[1])
    expect(result.code, result.stderr.slice(-2000)).toBe(0)
    expect(result.stdout).toContain(`first step: ${loop}`)
    expect(result.stderr.match(/reused\)/g)).toHaveLength(4)
  }, 300_000)

  it('refuses refs that are not commits, or not in order, and a checkout of another framework, before counting', async () => {
    const unknown = await runCli(['bisect', 'fastify', repo, good, 'no-such-ref', ...COUNT])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('DYNO_ERR_GIT_REF: BAD `no-such-ref` is not a commit of the repository at')
    const reversed = await runCli(['bisect', 'fastify', repo, bad, good, ...COUNT])
    expect(reversed.code).toBe(1)
    expect(reversed.stderr).toContain(`DYNO_ERR_BISECT: GOOD \`${bad}\``)
    expect(reversed.stderr).toContain('is not an ancestor of BAD')
    const other = await runCli(['bisect', 'express', repo, good, bad, ...COUNT])
    expect(other.code).toBe(2)
    expect(other.stderr).toContain('holds `fastify`, not express')
  })

  afterAll(() => runs.expectNoneLeft(expect))
})
