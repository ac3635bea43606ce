// @ts-check
// The bench part makes git worktrees of this repository; compare-commits-runs-both-commits-in-worktrees counts only its own, so this runs
// beside the other journeys.
// The shard-and-merge steps of suite.yml and bench.yml, run here as their jobs run them: the scripts their `run` steps call,
// with the variables the workflow sets, each part into a directory of its own, the artifacts laid out as download-artifact lays
// them (one directory per artifact), then the merge job's script. Only GitHub itself (the matrix, the artifact store) is left out.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { schemaErrors } from '../support/result-schemas.js'
import { writtenIndex } from '../support/written-run.js'
import { outputRead } from '../../src/platform/process/output-read.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-workflows-'))

/**
 * Runs one of the workflows' scripts from the checkout, as a `run` step does, bounded in time.
 * @param {string} script under .github/scripts @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function step (script, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join('.github', 'scripts', script)], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} did not finish within 5 minutes; stderr:\n${stderr}`))
    }, 300_000)
    child.on('exit', async (code) => {
      await outputRead([child.stdout, child.stderr])
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** @param {string} path @returns {Record<string, string>} what a step wrote to $GITHUB_OUTPUT */
const outputs = (path) => Object.fromEntries(readFileSync(path, 'utf8').trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)))

/**
 * Lays the parts out as download-artifact does: `parts/<artifact name>/<what the job uploaded>`.
 * @param {string[]} uploaded each part's uploaded directory @param {string} prefix the artifacts' name
 */
function downloaded (uploaded, prefix) {
  const parts = join(work, `${prefix}-downloaded`)
  uploaded.forEach((dir, index) => {
    mkdirSync(join(parts, `${prefix}-${index + 1}`), { recursive: true })
    cpSync(dir, join(parts, `${prefix}-${index + 1}`), { recursive: true })
  })
  return parts
}

describe('the workflows split their work over a matrix and merge it', () => {
  it('suite.yml: the matrix of parts, each part run, merged into one run with its report in the job summary', async () => {
    const planOutput = join(work, 'suite-plan-output')
    const plan = await step('matrix-parts.sh', { PARTS: '3', GITHUB_OUTPUT: planOutput })
    expect(plan.code, plan.stderr).toBe(0)
    expect(outputs(planOutput)).toEqual({ count: '3', parts: '[1,2,3]' })
    expect((await step('matrix-parts.sh', { PARTS: '0', GITHUB_OUTPUT: join(work, 'never') })).stderr).toMatch(/from 1 to 256, got `0`/)

    const uploaded = []
    for (const part of JSON.parse(outputs(planOutput).parts)) {
      const out = join(work, `suite-part-${part}`)
      const ran = await step('suite-part.sh', {
        PART: String(part),
        COUNT: outputs(planOutput).count,
        OUT: out,
        SEED: '42',
        FRAMEWORKS: 'node-http,fastify',
        PROFILE: 'quick',
        MEASURE: 'wall-clock',
        DYNO_RUN_ARGS: '--scenarios plaintext,json,params --repeats 1 --duration 0.5 --warmup 0 --connections 10 --engine autocannon ' +
          '--disturbed-above 99'
      })
      expect(ran.code, ran.stderr).toBe(0)
      uploaded.push(out)
    }
    const summary = join(work, 'suite-summary.md')
    const merged = join(work, 'suite-merged')
    const merge = await step('suite-merge.sh', {
      PARTS_DIR: downloaded(uploaded, 'dyno-suite-part'),
      MERGED: merged,
      GITHUB_STEP_SUMMARY: summary
    })
    expect(merge.code, merge.stderr).toBe(0)
    const index = writtenIndex(merged)
    expect(schemaErrors('run-index', index)).toEqual([])
    expect(index).toMatchObject({ status: 'complete', seed: 42, plan: { cells: 6, shard: null } })
    expect(index.results.map((/** @type {{ status: string }} */ entry) => entry.status)).toEqual(Array(6).fill('ok'))
    expect(existsSync(join(merged, 'report.html'))).toBe(true)
    expect(readFileSync(summary, 'utf8')).toBe(readFileSync(join(merged, 'report.md'), 'utf8'))
  }, 600_000)

  it('bench.yml: the comparison split by its expected time, each part comparing both commits, merged and compared as one', async () => {
    const common = {
      BASE_REF: 'HEAD',
      HEAD_REF: 'HEAD',
      FRAMEWORKS: 'node-http,fastify',
      MEASURE: 'wall-clock',
      DYNO_RUN_ARGS: '--scenarios json --duration 0.5 --warmup 0 --connections 10 --repeats 2 --engine autocannon --disturbed-above 99'
    }
    // Two cells of two rounds a side: about 5 s expected; a job budget of 3 s splits them in two.
    const planOutput = join(work, 'bench-plan-output')
    const plan = await step('bench-plan.sh', { ...common, JOB_BUDGET_SEC: '3', GITHUB_OUTPUT: planOutput })
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stdout).toMatch(/: 2 cells, [\d.]+ s expected/)
    expect(outputs(planOutput)).toEqual({ count: '2', parts: '[1,2]' })
    const onePart = join(work, 'bench-plan-one')
    expect((await step('bench-plan.sh', { ...common, JOB_BUDGET_SEC: '2400', GITHUB_OUTPUT: onePart })).code).toBe(0)
    expect(outputs(onePart)).toEqual({ count: '1', parts: '[1]' })

    const uploaded = []
    for (const part of [1, 2]) {
      const out = join(work, `bench-part-${part}`)
      const ran = await step('bench-part.sh', { ...common, PART: String(part), COUNT: '2', OUT: out })
      expect(ran.code, ran.stderr).toBe(0)
      expect(ran.stderr).toContain(`part ${part}/2 of the plan (1 of 2 cells: ${part === 1 ? 'node-http' : 'fastify'} × json)`)
      uploaded.push(out)
    }
    const compareMd = join(work, 'compare.md')
    const summary = join(work, 'bench-summary.md')
    const merged = join(work, 'bench-merged')
    const verdict = await step('bench-merge.sh', {
      PARTS_DIR: downloaded(uploaded, 'dyno-compare-part'), MERGED: merged, COMPARE_MD: compareMd, GITHUB_STEP_SUMMARY: summary
    })
    expect(verdict.code, verdict.stderr).toBe(0)
    const markdown = readFileSync(compareMd, 'utf8')
    expect(markdown).toMatch(/^Base `[0-9a-f]{12}` \(HEAD: .*\) against head `[0-9a-f]{12}` .*, wall-clock; /)
    expect(markdown).toMatch(/ 2 parts on machines of their own \(1\/2: 1 cell in \d+ s, 2\/2: 1 cell in \d+ s\)/)
    expect(markdown).toMatch(/\| fastify \| json \| 10 \| 2\/2 \|[\s\S]*\| node-http \| json \| 10 \| 2\/2 \|/)
    expect(readFileSync(summary, 'utf8')).toBe(markdown)
    expect(readdirSync(join(merged, 'base'))).toHaveLength(4)
    expect(readdirSync(join(merged, 'head'))).toHaveLength(4)
  }, 600_000)

  it('site.yml: the releases counted in parts, merged, appended to the dataset, the new ones handed over, written as a site', async () => {
    const env = {
      FRAMEWORKS: 'express@>=5.1.0 <=5.3.0',
      RUNTIMES: 'node',
      SCENARIOS: 'json',
      COUNT: '2',
      // The parts start from no dataset: the repository's own holds counts of other settings.
      DATA: join(work, 'no-dataset'),
      DYNO_CACHE_DIR: join(work, 'site-cache'),
      // Small counts: what is tested is the workflow's steps, not the figures.
      DYNO_TIMELINE_ARGS: '--count-warmup 200 --count-warmup-bound 200 --count-windows 3 --count-requests 50'
    }
    const uploaded = []
    for (const part of ['1', '2']) {
      const out = join(work, `timeline-part-${part}`)
      const result = await step('timeline-part.sh', { ...env, PART: part, OUT: out })
      expect(result.code, result.stderr).toBe(0)
      uploaded.push(out)
    }
    // The repository's dataset: one release already held, which the publication must not write again.
    const data = join(work, 'timeline-data')
    const held = join(uploaded[0], 'data')
    cpSync(held, data, { recursive: true })
    // One release held, whichever part counted how many: the others are the publication's to append and hand over.
    for (const name of readdirSync(join(data, 'records')).sort().slice(1)) {
      rmSync(join(data, 'records', name))
      rmSync(join(data, 'functions', `${name}.gz`), { force: true })
    }
    const heldFiles = readdirSync(join(data, 'records'))
    const site = join(work, 'timeline-site')
    const summary = join(work, 'timeline-summary.md')
    const publish = await step('timeline-publish.sh', {
      PARTS_DIR: downloaded(uploaded, 'dyno-timeline-part'),
      DATA: data,
      SITE: site,
      MERGED: join(work, 'timeline-merged'),
      NEW_RECORDS: join(work, 'timeline-new-records'),
      GITHUB_STEP_SUMMARY: summary
    })
    expect(publish.code, publish.stderr).toBe(0)
    expect(publish.stdout).toContain(`${heldFiles.length} already held`)
    expect(readdirSync(join(data, 'records')).sort()).toEqual(expect.arrayContaining(heldFiles))
    expect(readdirSync(join(data, 'records'))).toHaveLength(3)
    // What the propose job offers the repository: the records appended, and not the one held, each with its function list.
    const handedOver = readdirSync(join(work, 'timeline-new-records')).sort()
    const appended = readdirSync(join(data, 'records')).filter((name) => !heldFiles.includes(name)).sort()
    expect(handedOver.filter((name) => name.endsWith('.json'))).toEqual(appended)
    expect(appended).toHaveLength(2)
    // Every release counts on node: each record comes with its list.
    expect(handedOver.filter((name) => name.endsWith('.json.gz'))).toEqual(appended.map((name) => `${name}.gz`))
    for (const name of appended) expect(existsSync(join(data, 'functions', `${name}.gz`)), name).toBe(true)
    expect(existsSync(join(site, 'index.html'))).toBe(true)
    expect(readFileSync(summary, 'utf8')).toContain('Timeline: 3 records')
  }, 600_000)
})
