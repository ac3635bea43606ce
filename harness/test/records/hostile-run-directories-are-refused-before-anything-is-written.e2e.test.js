// @ts-check
// dyno reads directories other machines wrote (`dyno merge` of CI artifacts, `dyno compare` and `dyno report` of downloaded
// runs). A file name in a run's own data is a plain name inside that directory, and the shapes everything else reads first
// are checked: a hostile run.json is refused with exit 2 naming the file and the field, nothing is written (least of all
// outside `--out`), nothing outside the run directory is read, and no message carries a stack trace.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { copyOfRun, FOUR_REPEATS } from '../support/compare-inputs.js'
import { runCli } from '../support/run-cli.js'

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
    for (const entry of index.results.filter((/** @type {{ repeat: number }} */ entry) => !repeats.includes(entry.repeat))) {
      rmSync(join(dir, entry.file))
    }
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
      expectRefused(
        await runCli(['merge', first, second, '--out', link]),
        /DYNO_ERR_MERGE_REFUSED: `--out` .* is a symbolic link: name a new directory/
      )
    }
    expect(readdirSync(empty)).toEqual([])
    expect(existsSync(join(work, 'nowhere'))).toBe(false)
  })

  it('names a run.json without results, a result without a SUT, a field of the wrong type or range and a shard out of range, ' +
    'with exit 2', async () => {
    const noResults = runCopy({
      edit: (index) => {
        delete index.results
      }
    })
    for (const command of [
      ['report', noResults],
      ['merge', noResults, noResults, '--out', join(work, 'never-1')]
    ]) {
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
    expectRefused(await runCli(['report', noSut]), /--json(--r\d)?\.json: not a result as dyno writes it: sut is missing/)

    // Fields of the wrong type or out of range, in a result, in run.json and in the aggregates: each named with its file.
    /** @type {[string, (document: any) => void, RegExp][]} */
    const wrongFields = [
      [
        'result',
        (record) => {
          record.load.connections = -5
        },
        /--json(--r\d)?\.json: not a result as dyno writes it: load\.connections must be >= 1/
      ],
      [
        'result',
        (record) => {
          record.summary.requestsPerSec.mean = 'fast'
        },
        /summary\.requestsPerSec\.mean must be number/
      ],
      [
        'result',
        (record) => {
          record.status = 'great'
        },
        /status must be equal to one of the allowed values/
      ],
      [
        'index',
        (index) => {
          index.seed = 'x'
        },
        /run\.json: not a run index as dyno writes it: seed must be integer/
      ],
      [
        'aggregates',
        (aggregates) => {
          aggregates.aggregates = 7
        },
        /aggregates\.json: not the aggregates as dyno writes it: aggregates must be array/
      ]
    ]
    for (const [which, change, says] of wrongFields) {
      const wrong = runCopy({
        edit: (index, dir) => {
          const path = which === 'index' ? null : join(dir, which === 'result' ? index.results[0].file : index.aggregatesFile)
          if (!path) return change(index)
          const document = readJson(path)
          change(document)
          writeFileSync(path, JSON.stringify(document))
        }
      })
      for (const command of [
        ['report', wrong],
        ['compare', wrong, wrong]
      ]) {
        expectRefused(await runCli(command), says)
      }
    }

    // Out of the schema's range (read with run.json), or beyond the plan's cells (checked by merge against the plan).
    /** @type {[number, RegExp][]} */
    const counts = [
      [
        4_294_967_296,
        /DYNO_ERR_MERGE_REFUSED: .*plan\.shard .*; allowed: whole numbers with 1 ≤ shard\.index ≤ shard\.count ≤ plan\.cells/
      ],
      [2_000_000, /DYNO_ERR_MERGE_REFUSED: .*plan\.shard .*; allowed: whole numbers with 1 ≤ shard\.index ≤ shard\.count ≤ plan\.cells/],
      [0, /DYNO_ERR_RUN_UNREADABLE: .*run\.json: not a run index as dyno writes it: plan\.shard\.count must be >= 1/],
      [1.5, /DYNO_ERR_RUN_UNREADABLE: .*run\.json: not a run index as dyno writes it: plan\.shard\.count must be integer/]
    ]
    for (const [count, says] of counts) {
      const part = runCopy({
        shard: { index: 1, count: 2 },
        edit: (index) => {
          index.plan.shard.count = count
        }
      })
      const other = runCopy({ shard: { index: 2, count: 2 } })
      const out = join(work, `never-count-${count}`)
      expectRefused(await runCli(['merge', part, other, '--out', out]), says)
      expect(existsSync(out)).toBe(false)
    }
  }, 180_000) // about 20 command lines, each loading the CLI: seconds apiece on a busy machine
})
