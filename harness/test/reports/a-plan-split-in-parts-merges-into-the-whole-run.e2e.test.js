// @ts-check
// A plan split with --shard K/N, each part run one after another on this machine as a CI matrix's jobs would run them, and put
// back together with `dyno merge`: exactly the cells of the unsharded plan, every file schema-valid, the repeats of a cell
// that different parts measured merged exactly, and reports written. Then everything merge must refuse, each refused with
// exit 2, the directory named, and nothing written.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { mergedLatencyMs } from '../../src/records/merge-histograms.js'
import { dynoRun, SHORT_RUN } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

const runs = trackRuns()
const PLAN = Object.freeze({
  frameworks: 'node-http,fastify',
  scenarios: 'plaintext,json,params',
  repeats: 2,
  durationSec: 0.5,
  warmupSec: 0,
  connections: 10,
  engine: 'autocannon',
  // What is checked is how parts merge, not the figures: a cell beside the next test file is not measured again.
  disturbedAbovePct: 99
})
const work = mkdtempSync(join(tmpdir(), 'dyno-shards-'))

/** @param {string} dir */
const readJson = (dir) => JSON.parse(readFileSync(dir, 'utf8'))

/**
 * Runs one part of the run `fields` give into a directory of its own and returns the run directory.
 * @param {import('../support/dyno-run.js').RunFields} fields @param {string} name
 */
async function runPart (fields, name) {
  const out = join(work, name)
  const result = await runCli(dynoRun({ ...fields, out }), { timeoutMs: 120_000 })
  expect(result.stderr).not.toMatch(/unexpected error/)
  expect(result.code, result.stderr).toBe(0)
  const [runId] = readdirSync(out)
  runs.add(runId)
  return join(out, runId)
}

/** @param {string} path @param {(document: any) => void} change */
function editJson (path, change) {
  const document = readJson(path)
  change(document)
  writeFileSync(path, JSON.stringify(document, null, 2))
}

/** @param {string} source @param {string} name @returns {string} a copy of a part, to be changed */
function copyOf (source, name) {
  const target = join(work, 'copies', name)
  mkdirSync(join(work, 'copies'), { recursive: true })
  cpSync(source, target, { recursive: true })
  return target
}

/** @returns {string[]} the result files of the whole plan, in its order */
const wholeFiles = () => wholePlan.parts.flatMap((/** @type {{ planned: { file: string, position: number }[] }} */ part) => part.planned)
  .sort((/** @type {{ position: number }} */ a, /** @type {{ position: number }} */ b) => a.position - b.position)
  .map((/** @type {{ file: string }} */ entry) => entry.file)

/** @type {string[]} */
const parts = []
/** @type {any} */
let wholePlan

beforeAll(async () => {
  // The plan as `--plan` prints it before anything runs: every part, as each job will draw it.
  const planned = await runCli(dynoRun({ ...PLAN, shard: '1/3', planOnly: true }))
  expect(planned.code, planned.stderr).toBe(0)
  wholePlan = JSON.parse(planned.stdout)
  for (const index of [1, 2, 3]) parts.push(await runPart({ ...PLAN, shard: `${index}/3` }, `part-${index}`))
}, 300_000)

describe('a plan split in three parts', () => {
  it('has an identity that follows what it measures, not where or how fast each part carries it out', async () => {
    // Each option is given after the plan's own, as another machine's job would add it: `--duration` is given twice, the last one holding.
    const idOf = async (/** @type {string[]} */ extra) => {
      const result = await runCli(dynoRun({ ...PLAN, shard: '1/3', planOnly: true }, extra))
      expect(result.code, result.stderr).toBe(0)
      return JSON.parse(result.stdout).id
    }
    // Options the option table marks `partOfPlan: false`: each part's machine may give its own.
    for (const extra of [
      ['--out', join(work, 'elsewhere')],
      ['--cache-dir', join(work, 'cache')],
      ['--ready-timeout', '25'],
      ['--quiet-check', 'off'],
      ['--disturbed-above', '40'],
      ['--count-jobs', '2']
    ]) {
      expect(await idOf(extra), extra.join(' ')).toBe(wholePlan.id)
    }
    for (const extra of [
      ['--duration', '0.6'],
      ['--seed', '7'],
      ['--pin', 'off']
    ]) { expect(await idOf(extra), extra.join(' ')).not.toBe(wholePlan.id) }
  })

  it('gives every cell of the plan to exactly one part, balanced by expected time, each part recording the plan', () => {
    const indexes = parts.map((dir) => readJson(join(dir, 'run.json')))
    expect(wholePlan.cells).toBe(12)
    const files = indexes.flatMap((index) => index.planned.map((/** @type {{ file: string }} */ entry) => entry.file))
    expect(new Set(files).size).toBe(12)
    expect(files.sort()).toEqual(wholeFiles().sort())
    for (const [position, index] of indexes.entries()) {
      expect(index.planned).toEqual(wholePlan.parts[position].planned)
      expect(schemaErrors('run-index', index)).toEqual([])
      expect(index.plan).toMatchObject({ id: wholePlan.id, cells: 12, shard: { index: position + 1, count: 3, cells: 4 } })
      expect(index.options.seed).toBe(indexes[0].options.seed)
    }
    // Each repeat of a cell in whichever part balanced the load: here some cell has its two repeats in two parts.
    const partOf = new Map(
      indexes.flatMap((index, position) => index.planned.map((/** @type {{ file: string }} */ entry) => [entry.file, position]))
    )
    expect(
      [...partOf.keys()].some((file) => file.endsWith('--r1.json') && partOf.get(file) !== partOf.get(file.replace('--r1', '--r2')))
    ).toBe(true)
  })

  it('merges into one run with exactly the cells of the unsharded plan, schema-valid, aggregates over parts merged exactly, ' +
    'reports written', async () => {
    const out = join(work, 'merged')
    const merged = await runCli(['merge', ...[...parts].reverse(), '--out', out])
    expect(merged.code, merged.stderr).toBe(0)
    expect(merged.stdout).toContain(`3 parts, 12 cells of plan ${wholePlan.id}`)
    const index = readJson(join(out, 'run.json'))
    expect(schemaErrors('run-index', index)).toEqual([])
    expect(index.planned.map((/** @type {{ file: string }} */ entry) => entry.file)).toEqual(wholeFiles())
    expect(index).toMatchObject({
      status: 'complete',
      plan: { id: wholePlan.id, cells: 12, shard: null },
      merged: { mixedMachines: null }
    })
    expect(index.merged.parts.map((/** @type {{ shard: string }} */ part) => part.shard)).toEqual(['1/3', '2/3', '3/3'])
    expect(index.results).toHaveLength(12)
    const records = index.results.map((/** @type {{ file: string }} */ entry) => readJson(join(out, entry.file)))
    for (const record of records) expect(schemaErrors('result', record)).toEqual([])
    const aggregates = readJson(join(out, 'aggregates.json'))
    expect(schemaErrors('aggregates', aggregates)).toEqual([])
    expect(aggregates.aggregates).toHaveLength(6)
    for (const aggregate of aggregates.aggregates) {
      const mine = records.filter(
        (/** @type {any} */ record) => record.sut.label === aggregate.sut && record.scenario.name === aggregate.scenario
      )
      // A round other processes disturbed (the other test files load the machine) is left out of a cell that has a clean one.
      const clean = mine.filter((/** @type {any} */ record) => !record.interference?.disturbed)
      const inFigure = clean.length > 0 ? clean : mine
      expect(aggregate.runs + aggregate.disturbedLeftOut).toBe(2)
      expect(aggregate.runs).toBe(inFigure.length)
      expect(aggregate.latencyMs).toEqual(mergedLatencyMs(inFigure.map((/** @type {any} */ record) => record.summary.latencyHistogramUs)))
    }
    const report = readFileSync(join(out, 'report.md'), 'utf8')
    for (const scenario of ['plaintext', 'json', 'params']) expect(report).toContain(`\n## ${scenario}\n`)
    expect(existsSync(join(out, 'report.html'))).toBe(true)
  })
})

describe('dyno merge refuses, names the directory, and writes nothing', () => {
  /**
   * @param {string[]} args the parts and options
   * @param {RegExp} says what the message must say
   */
  async function refused (args, says) {
    const out = join(work, `refused-${Math.random().toString(16).slice(2)}`)
    const result = await runCli(['merge', ...args, '--out', out])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_MERGE_REFUSED|DYNO_ERR_RUN_UNREADABLE/)
    expect(result.stderr).toMatch(says)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(work).filter((name) => name.includes('.merging-'))).toEqual([])
  }

  it('a part missing, naming it', () => refused([parts[0], parts[2]], /part 2\/3 of plan [0-9a-f]{16} is missing/))

  it('two copies of one part, naming both', () =>
    refused([...parts, copyOf(parts[1], 'again')], new RegExp(`part 2/3 is given twice: .*${parts[1]}`)))

  it('one directory given twice', () => refused([parts[0], parts[0]], new RegExp(`${parts[0]} is given twice`)))

  it('a directory that is not a run', () => refused([work], new RegExp(`${work} is not a dyno run directory`)))

  it('a run made without --shard', async () => {
    const whole = await runPart({ ...SHORT_RUN, frameworks: 'node-http', scenarios: 'json', engine: 'autocannon' }, 'whole')
    await refused([whole], new RegExp(`${whole} is not a part of a split plan`))
  })

  it('parts of different plans', async () => {
    const other = await runPart({ ...PLAN, scenarios: 'plaintext,json', shard: '3/3' }, 'other-plan')
    await refused([parts[0], parts[1], other], /different plans/)
  })

  it('parts made at different commits', () => {
    const moved = copyOf(parts[2], 'other-commit')
    editJson(join(moved, 'run.json'), (index) => { index.env.git.commit = 'f'.repeat(40) })
    return refused([parts[0], parts[1], moved], new RegExp(`different commits: .*${'f'.repeat(40)}`))
  })

  it('an interrupted part', () => {
    const cut = copyOf(parts[2], 'interrupted')
    editJson(join(cut, 'run.json'), (index) => { index.status = 'interrupted' })
    return refused([parts[0], parts[1], cut], /part 3\/3 .* is `interrupted`, not complete/)
  })

  it('wall-clock parts of machines that differ, unless --allow-mixed-machines, which marks every table and chart', async () => {
    const elsewhere = copyOf(parts[2], 'other-machine')
    editJson(join(elsewhere, 'run.json'), (index) => { index.env.cpu.model = 'Another CPU @ 9.99GHz'; index.env.cpu.cores = 64 })
    await refused([parts[0], parts[1], elsewhere],
      /machines that differ.*cpu: .*Another CPU @ 9\.99GHz in part 3\/3.*cores: .*64 in part 3\/3.*--allow-mixed-machines/)
    const out = join(work, 'mixed')
    const mixed = await runCli(['merge', parts[0], parts[1], elsewhere, '--out', out, '--allow-mixed-machines'])
    expect(mixed.code, mixed.stderr).toBe(0)
    expect(readJson(join(out, 'run.json')).merged.mixedMachines.map((/** @type {{ property: string }} */ entry) => entry.property)).toEqual(
      ['cpu', 'cores']
    )
    const markdown = readFileSync(join(out, 'report.md'), 'utf8')
    const tables = markdown.split('\n## ').slice(1).filter((section) => section.includes('| framework'))
    // The overview, the three scenarios and every round.
    expect(tables).toHaveLength(5)
    for (const table of tables) expect(table).toMatch(/^[^\n]+\n\n> Mixed machines: .*Another CPU @ 9\.99GHz/)
    const html = readFileSync(join(out, 'report.html'), 'utf8')
    expect(html.match(/<p class="mixed">Mixed machines/g)).toHaveLength(4) // the page, and each of the three scenarios
    expect(JSON.parse(/<script id="dyno-model" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null').mixedMachines).toMatch(
      /^Mixed machines/
    )
  })

  it('an --out that already holds something', async () => {
    const before = readdirSync(work).sort()
    const result = await runCli(['merge', ...parts, '--out', work])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`DYNO_ERR_MERGE_REFUSED: \`--out\` ${work} is a directory that is not empty`)
    expect(readdirSync(work).sort()).toEqual(before)
  })
})

describe('--shard', () => {
  it.each(['0/3', '4/3', '1/0', 'a/b', '1/3/5'])('refuses %s with exit 2, naming the value and the form allowed', async (value) => {
    const result = await runCli(['run', '--shard', value, '--out', join(work, 'never')])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      `\`--shard\` must be K/N: part K of N parts, whole numbers with 1 ≤ K ≤ N ≤ 256 (e.g. \`2/4\`), got \`${value}\``
    )
    expect(existsSync(join(work, 'never'))).toBe(false)
  })
})
