// @ts-check
// dyno reads directories other machines wrote (`dyno merge` of CI artifacts, `dyno compare` and `dyno report` of downloaded
// runs). A file name in a run's own data is a plain name inside that directory, and the shapes everything else reads first
// are checked: a hostile run.json is refused with exit 2 naming the file and the field, nothing is written (least of all
// outside `--out`), nothing outside the run directory is read, and no message carries a stack trace.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { copyOfRun, FOUR_REPEATS } from './support/compare-inputs.js'
import { runCli } from './support/run-cli.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-hostile-runs-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** @param {string} path */
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))

/**
 * A copy of a committed run, as one part of a plan of two when `shard` is given, changed by `edit`.
 * @param {{ shard?: { index: number, count: number }, edit?: (index: any, dir: string) => void }} spec
 */
function runCopy ({ shard, edit }) {
  const dir = copyOfRun(FOUR_REPEATS)
  const index = readJson(join(dir, 'run.json'))
  if (shard) {
    const repeats = shard.index === 1 ? [1, 2] : [3, 4]
    for (const entry of index.results.filter((/** @type {{ repeat: number }} */ entry) => !repeats.includes(entry.repeat))) rmSync(join(dir, entry.file))
    index.results = index.results.filter((/** @type {{ repeat: number }} */ entry) => repeats.includes(entry.repeat))
    index.planned = index.planned.filter((/** @type {{ repeat: number }} */ entry) => repeats.includes(entry.repeat))
    index.plan = { id: '0123456789abcdef', cells: 4, expectedSec: 120, shard: { ...shard, cells: 2, expectedSec: 60 } }
  }
  edit?.(index, dir)
  writeFileSync(join(dir, 'run.json'), JSON.stringify(index, null, 2))
  return dir
}

/** @param {{ code: number | null, stderr: string }} result @param {RegExp} says */
function expectRefused (result, says) {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stderr).toMatch(says)
  expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+|TypeError|RangeError|unexpected error/)
  expect(result.stderr.length).toBeLessThan(2000)
}

describe('a hostile run directory', () => {
  it('cannot make merge write outside --out, nor report or compare read outside the run', async () => {
    const planted = (/** @type {string} */ dir) => join(dir, '..', '..', '..', 'planted.json')
    const first = runCopy({ shard: { index: 1, count: 2 } })
    const second = runCopy({
      shard: { index: 2, count: 2 },
      edit: (index, dir) => {
        mkdirSync(dirname(planted(dir)), { recursive: true })
        writeFileSync(planted(dir), readFileSync(join(dir, index.results[0].file)))
        index.results[0].file = '../../../planted.json'
      }
    })
    const out = join(work, 'a', 'b', 'c', 'merged')
    const traversal = /results\[0\]\.file is "\.\.\/\.\.\/\.\.\/planted\.json"; allowed: the plain name of a file inside the run directory/
    expectRefused(await runCli(['merge', first, second, '--out', out]), traversal)
    expect(existsSync(out)).toBe(false)
    expect(existsSync(planted(out))).toBe(false)
    expectRefused(await runCli(['report', second]), traversal)
    expectRefused(await runCli(['compare', first, second]), traversal)

    const passwd = runCopy({ edit: (index) => { index.results[0].file = '/etc/passwd' } })
    const compared = await runCli(['compare', first, passwd])
    expectRefused(compared, /results\[0\]\.file is "\/etc\/passwd"/)
    expect(compared.stderr).not.toMatch(/root:/)
  })

  it('is not merged into a symbolic link, dangling or pointing at an empty directory', async () => {
    const first = runCopy({ shard: { index: 1, count: 2 } })
    const second = runCopy({ shard: { index: 2, count: 2 } })
    const empty = join(work, 'empty-target')
    mkdirSync(empty)
    const links = { dangling: join(work, 'link-dangling'), 'to an empty directory': join(work, 'link-empty') }
    symlinkSync(join(work, 'nowhere'), links.dangling)
    symlinkSync(empty, links['to an empty directory'])
    for (const link of Object.values(links)) {
      expectRefused(await runCli(['merge', first, second, '--out', link]), /DYNO_ERR_MERGE_REFUSED: `--out` .* is a symbolic link: name a new directory/)
    }
    expect(readdirSync(empty)).toEqual([])
    expect(existsSync(join(work, 'nowhere'))).toBe(false)
  })

  it('names a run.json without results, a result without a SUT and a shard out of range, with exit 2', async () => {
    const noResults = runCopy({ edit: (index) => { delete index.results } })
    for (const command of [['report', noResults], ['merge', noResults, noResults, '--out', join(work, 'never-1')]]) {
      expectRefused(await runCli(command), /run\.json: results must be a list of the run's result files|given twice/)
    }
    expectRefused(await runCli(['report', noResults]), /run\.json: results must be a list of the run's result files, got undefined/)

    const noSut = runCopy({
      edit: (index, dir) => {
        const path = join(dir, index.results[0].file)
        const record = readJson(path)
        delete record.sut
        writeFileSync(path, JSON.stringify(record))
      }
    })
    expectRefused(await runCli(['report', noSut]), /--json\.json: not a dyno result: it lacks sut\.name|: not a dyno result: it lacks sut\.name/)

    for (const count of [4_294_967_296, 2_000_000, 0, 1.5]) {
      const part = runCopy({ shard: { index: 1, count: 2 }, edit: (index) => { index.plan.shard.count = count } })
      const other = runCopy({ shard: { index: 2, count: 2 } })
      const out = join(work, `never-count-${count}`)
      expectRefused(await runCli(['merge', part, other, '--out', out]),
        /DYNO_ERR_MERGE_REFUSED: .*plan\.shard .*; allowed: whole numbers with 1 ≤ shard\.index ≤ shard\.count ≤ plan\.cells/)
      expect(existsSync(out)).toBe(false)
    }
  })
})
