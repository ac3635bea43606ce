// @ts-check
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { shortRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

const runs = trackRuns()

it('on SIGINT stops the SUT, writes the run under way as interrupted, keeps finished runs, exits 130', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-interrupt-'))
  let interrupted = false
  const result = await runCli(
    // A short run, one round in plan order and no cell measured again for disturbance, of cells long enough to interrupt: the second
    // cell is waited for by its place.
    shortRun({ frameworks: 'node-http', scenarios: 'plaintext,json,params', durationSec: 8, engine: 'autocannon', out }),
    {
      onStderr: (stderr, child) => {
        // Interrupt once the second run is measuring: the first is finished and written by then.
        if (!interrupted && /\[2\/3\] node-http × json {2}measure/.test(stderr)) {
          interrupted = true
          child.kill('SIGINT')
        }
      }
    }
  )
  expect(interrupted).toBe(true)
  expect(result.code).toBe(130)
  expect(result.stderr).toContain('DYNO_ERR_INTERRUPTED: interrupted after 2 runs')

  const [runId] = readdirSync(out)
  runs.add(runId)
  const runDir = join(out, runId)
  const index = writtenIndex(runDir)
  expect(schemaErrors('run-index', index)).toEqual([])
  expect(index.status).toBe('interrupted')
  expect(index.results.map((/** @type {{ file: string, status: string }} */ entry) => [entry.file, entry.status]))
    .toEqual([['node-http--plaintext.json', 'ok'], ['node-http--json.json', 'failed']])
  const partial = JSON.parse(readFileSync(join(runDir, 'node-http--json.json'), 'utf8'))
  expect(schemaErrors('result', partial)).toEqual([])
  expect(partial).toMatchObject({ errorCode: 'DYNO_ERR_INTERRUPTED', summary: { stoppedEarly: true } })
  expect(partial.summary.requests).toBeGreaterThan(0)
  expect(partial.summary.durationSec).toBeLessThan(8)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))
