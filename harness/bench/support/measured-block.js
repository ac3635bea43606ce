// @ts-check
// Figures in the documentation are never typed by hand: the bench script that measures them writes them into a marked
// block of the document, with when, on what machine, at which commit and by which command they were measured. Running
// the script again replaces the block; a test checks that every block is written by a script that exists.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, release, totalmem } from 'node:os'
import { basename, join } from 'node:path'
import { REPO_ROOT } from '../../src/platform/paths.js'

/** Where the figures of how dyno measures live. */
export const MEASURING_DOC = join(REPO_ROOT, 'docs', 'measuring.md')

/**
 * The markers of a block: `<!-- dyno:measured:NAME:start … -->` … `<!-- dyno:measured:NAME:end -->`.
 * @param {string} name the bench script's file name without `.js`
 */
export function blockMarkers (name) {
  return {
    start: `<!-- dyno:measured:${name}:start (written by \`node harness/bench/${name}.js\`; do not edit by hand) -->`,
    end: `<!-- dyno:measured:${name}:end -->`
  }
}

/**
 * @param {string} text a document
 * @returns {string[]} the names of the measured blocks it holds, in order
 */
export function measuredBlockNames (text) {
  return [...text.matchAll(/<!-- dyno:measured:([\w-]+):start /g)].map((match) => match[1])
}

/** @returns {string} the machine and the code the figures were measured on, in one line */
function measuredOn () {
  const cpu = cpus()
  let commit = 'unknown commit'
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    }).trim()
  } catch {}
  return `${cpu[0]?.model.trim() ?? 'unknown cpu'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, ` +
    `Node ${process.version}; commit ${commit}`
}

/**
 * Replaces the content of the script's block in `file` with `lines`, preceded by a line that says where they come from.
 * @param {{ script: string, lines: string[], argv?: string[], file?: string }} block script: the bench script's
 *   import.meta.url; argv: its arguments, as run; file: the document (docs/measuring.md)
 * @throws {Error} when the document has no such block (a new block is placed by hand once: its markers, nothing between)
 */
export function writeMeasuredBlock ({ script, lines, argv = process.argv.slice(2), file = MEASURING_DOC }) {
  const name = basename(new URL(script).pathname, '.js')
  const { start, end } = blockMarkers(name)
  const text = readFileSync(file, 'utf8')
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from === -1 || to < from) {
    throw new Error(`${file} has no block for ${name}: put its two markers where the figures belong\n${start}\n${end}`)
  }
  const command = ['node', `harness/bench/${name}.js`, ...argv].join(' ')
  const header = `*Measured ${new Date().toISOString().slice(0, 10)} by \`${command}\` on ${measuredOn()}.*`
  writeFileSync(file, `${text.slice(0, from + start.length)}\n${header}\n\n${lines.join('\n')}\n${text.slice(to)}`)
  process.stdout.write(`figures written into ${file} (${name})\n`)
}
