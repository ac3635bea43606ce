// @ts-check
// However dyno is interrupted the way users do it (Ctrl-C typed into a terminal running `pnpm bench`, a
// `timeout` around it, pnpm itself going away, a second Ctrl-C), no SUT, generator or service outlives it,
// the finished runs and the run under way are on disk, and run.json says `interrupted`.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/platform/defaults.js'
import { processesOfRuns, trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { start } from '../support/started-command.js'
import { writtenIndex } from '../support/written-run.js'

const runs = trackRuns()
const SUITE = fileURLToPath(new URL('../support/interruptible-suite.js', import.meta.url))
// One round in plan order, and no cell measured again for disturbance (the other test files load the machine): the test waits for the
// second cell by its place.
const BENCH_ARGS = [
  '--frameworks',
  'node-http',
  '--scenarios',
  'plaintext,json,params',
  '--repeats',
  '1',
  '--disturbed-above',
  '99',
  '--duration',
  '8',
  '--warmup',
  '0',
  '--connections',
  '10',
  '--engine',
  'autocannon'
]
/** The progress line of the second run, once it measures (terminal colours and cursor moves taken out). */
const SECOND_RUN_MEASURING = /\[2\/3\] node-http × json\s+measure/

/** @param {ReturnType<typeof start>} suite the directory interruptible-suite.js said its run goes into */
const outOf = (suite) => /^out (.+)$/m.exec(suite.seen.text)?.[1] ?? ''

/**
 * Waits, bounded, until the run's index is no longer `running` and none of its processes is left.
 * @param {string} out
 */
async function settledRun (out, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [runId] = readdirSync(out)
    if (runId) {
      runs.add(runId)
      const index = writtenIndex(join(out, runId))
      if (index.status !== 'running' && processesOfRuns([runId]).length === 0) return { runId, runDir: join(out, runId), index }
    }
    if (Date.now() > deadline) throw new Error(`the run in ${out} did not settle within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The results of an interrupted run: the finished ones ok, the last one the run under way, failed as
 * interrupted with what it had measured, all schema-valid.
 * @param {{ runDir: string, index: any }} run
 * @param {string} signalName
 */
function expectInterruptedRun ({ runDir, index }, signalName) {
  expect(schemaErrors('run-index', index)).toEqual([])
  expect(index.status).toBe('interrupted')
  expect(index.results.length).toBeGreaterThan(0)
  const records = index.results.map((/** @type {{ file: string }} */ entry) => JSON.parse(readFileSync(join(runDir, entry.file), 'utf8')))
  for (const record of records) expect(schemaErrors('result', record)).toEqual([])
  const last = records.at(-1)
  expect(records.slice(0, -1).map((/** @type {any} */ record) => record.status)).toEqual(records.slice(0, -1).map(() => 'ok'))
  expect(last).toMatchObject({ status: 'failed', errorCode: 'DYNO_ERR_INTERRUPTED' })
  expect(last.reason).toContain(signalName)
  return records
}

it('Ctrl-C typed into a terminal running pnpm bench: the run under way is written, nothing is left', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-pty-'))
  // script(1) gives pnpm a real pseudo-terminal; the ^C it is sent becomes SIGINT for the whole foreground
  // group (the shell, pnpm, dyno), exactly as a keypress does. stty gives the progress display a width.
  const command = ['stty cols 160 rows 50;', 'pnpm', 'bench', ...BENCH_ARGS, '--out', out].join(' ')
  const bench = start('script', ['-qefc', command, '/dev/null'])
  await bench.waitFor(SECOND_RUN_MEASURING)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  bench.child.stdin.write('\x03')
  const exit = await bench.exited
  const run = await settledRun(out)
  expect(exit.code).not.toBe(0)
  expect(bench.seen.text).toContain('DYNO_ERR_INTERRUPTED: interrupted after 2 runs')
  const records = expectInterruptedRun(run, 'SIGINT')
  expect(records).toHaveLength(2)
  expect(records[1].summary).toMatchObject({ stoppedEarly: true })
  expect(records[1].summary.requests).toBeGreaterThan(0)
}, 60_000)

it('timeout around pnpm bench (SIGTERM to pnpm and dyno): the run under way is written, nothing is left', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-timeout-'))
  // The limit runs out when the run is under way, whatever the machine's speed: GNU timeout treats a SIGALRM as its limit reached
  // (the alarm it sets itself), so the test sends one once the second cell is seen. A limit in seconds fired before dyno had started
  // on a busy machine (6 s), and would let all three cells finish on a fast one.
  const bench = start('timeout', ['-s', 'TERM', '600', 'pnpm', 'bench', ...BENCH_ARGS, '--out', out])
  await bench.waitFor(/\[2\/3\] node-http × json/)
  bench.child.kill('SIGALRM')
  const exit = await bench.exited
  expect(exit.code).toBe(124)
  expectInterruptedRun(await settledRun(out), 'SIGTERM')
}, 60_000)

it('pnpm killed under dyno: dyno sees its parent gone and stops as if hung up', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-orphan-'))
  const bench = start('pnpm', ['bench', ...BENCH_ARGS, '--out', out])
  await bench.waitFor(/\[2\/3\] node-http × json/)
  bench.child.kill('SIGKILL')
  expectInterruptedRun(await settledRun(out), 'SIGHUP')
}, 60_000)

it('a second Ctrl-C cuts the wait for a SUT that ignores SIGTERM short, and still writes the run and leaves nothing', async () => {
  const suite = start(process.execPath, [SUITE, 'ignores-sigterm', 'json', '8'])
  await suite.waitFor(/run 1 load measure/)
  await new Promise((resolve) => setTimeout(resolve, 500))
  const firstAt = Date.now()
  suite.child.kill('SIGINT')
  // The SUT ignores the SIGTERM of the graceful stop; a second signal, later than a repeat of the first, ends the wait. Later by the
  // suite's clock too: it is sent a second after the suite said it took the first (a second after sending it was not, where the
  // suite was descheduled and took both together, as one interruption delivered twice).
  await suite.waitFor(/^interrupted SIGINT$/m)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  suite.child.kill('SIGINT')
  const exit = await suite.exited
  expect(Date.now() - firstAt).toBeLessThan(DEFAULTS.stopGraceSec * 1000)
  expect(exit.code).toBe(130)
  const records = expectInterruptedRun(await settledRun(outOf(suite)), 'SIGINT')
  expect(records[0].sutProcess.exit.signal).toBe('SIGKILL')
}, 60_000)

it.each([['SIGTERM', 143], ['SIGHUP', 129]])('%s: the same, with exit status %i (128 + the signal)', async (signalName, status) => {
  const suite = start(process.execPath, [SUITE, 'cpu-work', 'json,json', '8'])
  await suite.waitFor(/run 1 load measure/)
  suite.child.kill(/** @type {NodeJS.Signals} */ (signalName))
  expect((await suite.exited).code).toBe(status)
  expectInterruptedRun(await settledRun(outOf(suite)), signalName)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))
