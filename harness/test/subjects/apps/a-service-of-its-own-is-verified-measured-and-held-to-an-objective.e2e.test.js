// @ts-check
// `--app`: the example shop (Express and PostgreSQL, outside dyno's SUT packages) is started by its config, told its port in PORT,
// found ready by its probe, verified and measured on its own three scenarios, on two Node lines side by side, and given a capacity
// within an objective, with an interval over its launches. What is checked is the run's record, never a speed.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { shortRun } from '../../support/dyno-run.js'
import { missing, skipNote } from '../../support/needs.js'
import { runCli } from '../../support/run-cli.js'

const SHOP = fileURLToPath(new URL('../../../../examples/shop-service', import.meta.url))
const why = missing('postgres')
const work = mkdtempSync(join(tmpdir(), 'dyno-app-'))

/** @param {string} runDir @returns {any[]} its result records */
const resultsOf = (runDir) => readdirSync(runDir).filter((name) => name.startsWith('shop--'))
  .map((name) => JSON.parse(readFileSync(join(runDir, name), 'utf8')))

/** @param {string} stdout @returns {string} the run directory it names */
const runDirOf = (stdout) => /** @type {string} */ (/^results: (.+)$/m.exec(stdout)?.[1])

describe.skipIf(why)(`a service of its own, given by --app${skipNote(why)}`, () => {
  it('is verified and measured on its scenarios, on two Node lines side by side', async () => {
    const out = join(work, 'run')
    const result = await runCli([...shortRun({ app: SHOP, runtimes: 'node,node@24', out }), '--quiet-check', 'off'], { timeoutMs: 240_000 })
    expect(result.code, result.stderr).toBe(0)
    const runDir = runDirOf(result.stdout)
    const records = resultsOf(runDir)
    expect(records.map((record) => `${record.sut.label} × ${record.scenario.name}`).sort()).toEqual([
      'shop (node) × category', 'shop (node) × product', 'shop (node) × quote',
      'shop (node@24) × category', 'shop (node@24) × product', 'shop (node@24) × quote'
    ])
    for (const record of records) {
      expect(record.status, `${record.sut.label} × ${record.scenario.name}: ${record.reason}`).toBe('ok')
      expect(record.sut).toMatchObject({ name: 'shop', package: 'app:shop', framework: 'shop', frameworkVersion: '1.0.0' })
      expect(record.verification.passed).toBe(true)
      expect(record.summary.requestsPerSec.mean).toBeGreaterThan(0)
    }
    const index = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'))
    expect(index.options.app).toEqual({ dir: SHOP, file: join(SHOP, 'dyno.config.yaml'), name: 'shop' })
    expect(existsSync(join(runDir, 'report.html'))).toBe(true)
  })

  it('gives a capacity within an objective, with an interval over its launches', async () => {
    const result = await runCli(['capacity', '--app', SHOP, '--scenarios', 'quote', '--repeats', '3', '--warmup', '0.2',
      '--duration', '0.5', '--step', '0.2', '--max-rate', '400', '--slo', 'p50<=1s', '--sweep-connections', '8',
      '--disturbed-above', '99', '--out', join(work, 'capacity')], { timeoutMs: 240_000 })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^capacity, quote \(objective p50<=1s\):$/m)
    const row = /^shop\s+([\d,]+)\s+([\d,]+)–([\d,]+)\s+1\s+3\s/m.exec(result.stdout)
    expect(row, result.stdout).not.toBeNull()
    const [capacity, low, high] = /** @type {RegExpExecArray} */ (row).slice(1).map((text) => Number(text.replaceAll(',', '')))
    expect(capacity).toBeGreaterThan(0)
    expect(low).toBeLessThanOrEqual(capacity)
    expect(high).toBeGreaterThanOrEqual(capacity)
  })
})
