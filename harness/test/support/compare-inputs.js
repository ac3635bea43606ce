// @ts-check
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from './run-cli.js'

/**
 * One real run of node-http on the json scenario through the CLI, short: the shape every result
 * file of a comparison has (env, load, repeats, histograms).
 * @param {{ repeats: number, runs: { add: (runId: string) => string } }} options runs: the leftover-process tracker
 * @returns {Promise<string>} the run directory
 */
export async function realRun ({ repeats, runs }) {
  const out = mkdtempSync(join(tmpdir(), 'dyno-compare-real-'))
  const result = await runCli(['run', '--frameworks', 'node-http', '--scenarios', 'json', '--connections', '10', '--duration', '0.5', '--warmup', '0',
    '--repeats', String(repeats), '--seed', '7', '--out', out], { timeoutMs: 120_000 })
  const [runId] = readdirSync(out)
  if (runId) runs.add(runId)
  if (result.code !== 0) throw new Error(`dyno run failed (${result.code}):\n${result.stderr}`)
  return join(out, runId)
}

/**
 * A copy of a run directory whose result files carry the given figures, repeat by repeat, so that
 * a comparison of two copies has known answers.
 * @param {string} runDir
 * @param {{ requestsPerSec: number[], p99Ms: number[], edit?: (record: any, repeat: number) => void }} figures
 * @returns {string} the copy
 */
export function runWithFigures (runDir, { requestsPerSec, p99Ms, edit }) {
  const copy = join(mkdtempSync(join(tmpdir(), 'dyno-compare-side-')), 'run')
  cpSync(runDir, copy, { recursive: true })
  const index = JSON.parse(readFileSync(join(copy, 'run.json'), 'utf8'))
  for (const entry of index.results) {
    const path = join(copy, entry.file)
    const record = JSON.parse(readFileSync(path, 'utf8'))
    const position = record.repeat.index - 1
    record.summary.requestsPerSec.mean = requestsPerSec[position]
    record.summary.latencyMs.p99 = p99Ms[position]
    edit?.(record, record.repeat.index)
    writeFileSync(path, JSON.stringify(record, null, 2))
  }
  return copy
}
