// @ts-check
// A real `dyno run` beside a busy loop pinned on the SUT's cpu, whose command line carries a secret in every form programs take one
// (mysql's -p, an Authorization header, a URL password holding @, ?key=, X-Amz-Signature=, curl -u, a token as a URL's user,
// --passphrase, --private-key=, redis-cli -a, --cookie, `password: x`, sshpass -p, -pMyPass db): the look before measuring and the
// disturbed cell name the loop by pid and executable, and no file of the run directory and nothing the command printed holds any of
// the secrets. With `--census-args on` its arguments are there, masked, and still no secret (each form masked on its own:
// other-processes-are-named-without-their-arguments). Alone: the loop takes half the SUT's cpu, which would disturb every other
// test file's cells.
import { readdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { dynoRun } from '../support/dyno-run.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { SECRET_FORMS, startCarrying, stopAll } from '../support/secret-command-lines.js'

const absent = missing('two cpus')
const work = mkdtempSync(join(tmpdir(), 'dyno-census-'))
/** @type {number[]} */
const loops = []
afterEach(async () => { expect(await stopAll(loops)).toEqual([]) })
afterAll(() => rmSync(work, { recursive: true, force: true }))

/**
 * A busy loop on the SUT's cpu (0) carrying every secret form, the first as the name it gives itself: its command line begins with
 * a secret. @returns {Promise<number>} its pid
 */
async function startLoop () {
  const [first, ...rest] = SECRET_FORMS
  const pid = await startCarrying(rest.flatMap(({ argv }) => argv), { busy: true, cpu: 0, argv0: first.argv.join(' ') })
  loops.push(pid)
  return pid
}

/** @param {import('../support/dyno-run.js').RunFields} fields @param {string} name */
async function runBeside (fields, name) {
  const out = join(work, name)
  const result = await runCli(
    dynoRun({
      frameworks: 'node-http',
      scenarios: 'json',
      durationSec: 1,
      warmupSec: 0,
      connections: 10,
      repeats: 1,
      engine: 'autocannon',
      pin: 'sut=0,gen=1',
      quietCheck: 'on',
      out,
      ...fields
    }),
    { timeoutMs: 180_000 }
  )
  expect(result.code, result.stderr).toBe(0)
  const [runId] = readdirSync(out)
  const runDir = join(out, runId)
  const files = readdirSync(runDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    .map((entry) => ({ file: join(entry.parentPath, entry.name), text: readFileSync(join(entry.parentPath, entry.name), 'utf8') }))
  expect(files.map(({ file }) => file.slice(runDir.length + 1)).sort()).toEqual(
    expect.arrayContaining(['report.html', 'report.md', 'run.json'])
  )
  const index = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'))
  const record = JSON.parse(readFileSync(join(runDir, index.results[0].file), 'utf8'))
  return { output: result.stdout + result.stderr, files, index, record }
}

/** @param {{ output: string, files: { file: string, text: string }[] }} run */
function expectNoSecret ({ output, files }) {
  for (const { secret, form } of SECRET_FORMS) {
    expect(output, `${form} in the output`).not.toContain(secret)
    for (const { file, text } of files) expect(text, `${form} in ${file}`).not.toContain(secret)
  }
}

describe.skipIf(absent)(`other processes beside a run${skipNote(absent)}`, () => {
  it('are named by pid and executable, and no secret on their command lines is in any file or output of the run', async () => {
    const pid = await startLoop()
    const run = await runBeside({}, 'names-only')
    expectNoSecret(run)
    // The loop was seen: named before measuring and in the cell it disturbed, by what identifies it.
    const seen = [...run.index.quietCheck.report.top, ...run.record.summary.interference.top].filter((entry) => entry.pid === pid)
    expect(seen.length, `pid ${pid} in the census`).toBeGreaterThan(0)
    for (const entry of seen) expect(entry).toEqual(expect.objectContaining({ name: 'node', user: null }))
    for (const entry of seen) expect(Object.keys(entry)).not.toContain('args')
    expect(run.output).toContain(`pid ${pid} \`node\``)
  }, 240_000)

  it('are named by their masked arguments too with --census-args on, still without a secret', async () => {
    const pid = await startLoop()
    const run = await runBeside({ censusArgs: 'on' }, 'with-arguments')
    expectNoSecret(run)
    const named = [...run.index.quietCheck.report.top, ...run.record.summary.interference.top].filter((entry) => entry.pid === pid)
    expect(named.length).toBeGreaterThan(0)
    for (const entry of named) expect(entry.args).toMatch(/^mysql -p\*\*\* db -e .* -- /)
    expect(run.record.interference.detail).toContain('***')
  }, 240_000)
})
