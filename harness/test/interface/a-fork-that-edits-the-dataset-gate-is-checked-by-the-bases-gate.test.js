// @ts-check
// The dataset's gate is the base's: a fork's pull request that rewrites .github/scripts/dataset-check.sh to `exit 0` and adds a bad
// record under data/timeline is still refused, naming the record, because dataset.yml (pull_request_target) runs the base's script
// and checker in a checkout of the base, and reads the pull request's head out of git. Simulated with real repositories made from
// this tree: an upstream (the base, the pull request's head published as refs/pull/1/head, as GitHub does), a fork that makes the
// pull request, and the gate's clone of the upstream's default branch, which runs the step of dataset.yml as the workflow writes it.
import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { idOf } from '../../src/history/timeline/timeline-dataset.js'
import { REPO_ROOT } from '../../src/platform/paths.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-dataset-gate-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const RECORDS = 'data/timeline/records'
/** The gate's run is one node process reading the dataset back: far below this on any machine. */
const GATE_TIMEOUT_MS = 60_000

/** @param {string} dir @returns {(args: string[]) => string} */
const gitIn = (dir) => (args) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8', stdio: 'pipe' }).trim()

/** The upstream: this tree's files (committed or not, as git would add them) in one commit on main. @returns {string} */
function upstreamOfThisTree () {
  const upstream = join(work, 'upstream')
  const listed = execFileSync('git', ['-C', REPO_ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { encoding: 'utf8' }).split('\0')
  for (const path of listed.filter((entry) => entry !== '' && existsSync(join(REPO_ROOT, entry)))) {
    mkdirSync(dirname(join(upstream, path)), { recursive: true })
    copyFileSync(join(REPO_ROOT, path), join(upstream, path))
  }
  const git = gitIn(upstream)
  git(['init', '-q', '-b', 'main'])
  git(['add', '-A'])
  git(['commit', '-q', '-m', 'the base'])
  return upstream
}

/** A record as `dyno timeline` writes one, of a release the dataset does not hold. @param {string} tree @returns {any} */
function newRecord (tree) {
  const held = JSON.parse(readFileSync(join(tree, RECORDS, readdirSync(join(tree, RECORDS))[0]), 'utf8'))
  const key = { ...held.key, release: '99.0.0' }
  return { ...held, key, id: idOf(key, held.status) }
}

/**
 * A fork's pull request: `change` run in a clone of the upstream and committed, its head published in the upstream as
 * refs/pull/N/head. @param {string} upstream @param {number} number @param {(fork: string) => void} change
 * @returns {string} the head's hash
 */
function pullRequest (upstream, number, change) {
  const fork = join(work, `fork-${number}`)
  execFileSync('git', ['clone', '-q', upstream, fork])
  change(fork)
  const git = gitIn(fork)
  git(['add', '-A'])
  git(['commit', '-q', '-m', 'the pull request'])
  gitIn(upstream)(['fetch', '-q', fork, `HEAD:refs/pull/${number}/head`])
  return git(['rev-parse', 'HEAD'])
}

/**
 * dataset.yml's job as GitHub runs it on pull_request_target: a clone of the base (its default branch, the base's installed
 * dependencies), then the job's `run` steps with their `env`, the workflow's expressions given the event's values.
 * @param {string} upstream @param {string} headSha
 * @returns {import('node:child_process').SpawnSyncReturns<string>[]} each step's outcome
 */
function runTheGate (upstream, headSha) {
  const gate = join(work, `gate-${headSha.slice(0, 8)}`)
  execFileSync('git', ['clone', '-q', upstream, gate])
  // The base's dependencies, as the gate's own install of the base's lockfile would make them.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(gate, 'node_modules'))
  symlinkSync(join(REPO_ROOT, 'harness', 'node_modules'), join(gate, 'harness', 'node_modules'))
  const event = { 'github.sha': gitIn(gate)(['rev-parse', 'HEAD']), 'github.event.pull_request.head.sha': headSha }
  const workflow = parse(readFileSync(join(gate, '.github', 'workflows', 'dataset.yml'), 'utf8'))
  const steps = /** @type {{ run?: string, env?: Record<string, string> }[]} */ (workflow.jobs.dataset.steps)
  return steps.filter((step) => step.run).map((step) => {
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, value.replace(
      /\$\{\{\s*([\w.]+)\s*\}\}/g, (_, expression) => /** @type {Record<string, string>} */ (event)[expression] ?? `<${expression}>`)]))
    return spawnSync('bash', ['-e', '-c', /** @type {string} */ (step.run)], {
      cwd: gate, env: { ...process.env, ...env }, encoding: 'utf8', timeout: GATE_TIMEOUT_MS
    })
  })
}

describe('the dataset\'s gate on a fork\'s pull request', () => {
  const upstream = upstreamOfThisTree()

  it('refuses a bad record, naming it, though the pull request rewrote the gate\'s script to pass', () => {
    const bad = newRecord(upstream)
    const headSha = pullRequest(upstream, 1, (fork) => {
      writeFileSync(join(fork, '.github', 'scripts', 'dataset-check.sh'), '#!/usr/bin/env bash\nexit 0\n')
      writeFileSync(join(fork, RECORDS, `${bad.id}.json`), JSON.stringify({ ...bad, publishedAt: 12 }, null, 2))
    })
    // The pull request's own script would have passed it.
    expect(spawnSync('bash', [join(work, 'fork-1', '.github', 'scripts', 'dataset-check.sh')]).status).toBe(0)
    const [outcome] = runTheGate(upstream, headSha)
    expect(outcome.signal, outcome.stderr).toBeNull()
    expect(outcome.status, outcome.stdout + outcome.stderr).toBe(2)
    expect(outcome.stderr).toMatch(/DYNO_ERR_DATASET/)
    expect(outcome.stderr).toContain(`${RECORDS}/${bad.id}.json is not a record this dyno reads`)
    expect(outcome.stderr).toContain('.github/scripts/dataset-check.sh is changed (M)')
  })

  it('passes a pull request that only adds good records, read out of git without checking it out', () => {
    const good = newRecord(upstream)
    const headSha = pullRequest(upstream, 2, (fork) => {
      writeFileSync(join(fork, RECORDS, `${good.id}.json`), JSON.stringify(good, null, 2))
    })
    const [outcome] = runTheGate(upstream, headSha)
    expect(outcome.status, outcome.stdout + outcome.stderr).toBe(0)
    expect(outcome.stdout).toMatch(new RegExp(`timeline-check: 1 record added from [0-9a-f]{40} to ${headSha}, nothing else changed`))
    // The gate's checkout is still the base's: the record is not in its tree.
    expect(existsSync(join(work, `gate-${headSha.slice(0, 8)}`, RECORDS, `${good.id}.json`))).toBe(false)
  })

  it('is a workflow of the base (pull_request_target) that can only read and never checks out the pull request', () => {
    const text = readFileSync(join(REPO_ROOT, '.github', 'workflows', 'dataset.yml'), 'utf8')
    const workflow = parse(text)
    expect(Object.keys(workflow.on)).toEqual(['pull_request_target'])
    expect(workflow.permissions).toEqual({ contents: 'read' })
    for (const step of workflow.jobs.dataset.steps) expect(step.with?.ref, JSON.stringify(step)).toBeUndefined()
    expect(text).not.toMatch(/github\.head_ref|pull_request\.head\.ref|refs\/pull\/.*\/merge/)
    expect(readFileSync(join(REPO_ROOT, '.github', 'workflows', 'ci.yml'), 'utf8')).not.toMatch(/dataset-check/)
    const owners = readFileSync(join(REPO_ROOT, '.github', 'CODEOWNERS'), 'utf8')
    expect(owners).toMatch(/^\/\.github\/ @\S+/m)
    expect(owners).toMatch(/^\/data\/ @\S+/m)
  })
})
