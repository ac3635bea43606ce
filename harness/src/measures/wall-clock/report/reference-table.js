// @ts-check
// The README's reference table: one real run's overview (frameworks × scenarios, req/s with rank groups and marks, as report.md
// opens with it), with the environment it was measured in. Written between two markers by `pnpm readme:reference`, never by hand.
import { inertMarkdown } from '../../../platform/util/inert-markdown.js'
import { overviewMarkdown } from '../../overview-text.js'
import { wallClockOverview } from './overview.js'
import { loadTimesText } from '../../load-settings.js'

export const REFERENCE_START = '<!-- dyno:reference:start (written by `pnpm readme:reference RUN_DIR`; do not edit by hand) -->'
export const REFERENCE_END = '<!-- dyno:reference:end -->'

/**
 * @param {import('../../../records/read-run.js').RunData} run
 * @returns {string} the block, markers included: the run's environment, then its overview (./overview.js) as report.md opens with it
 */
export function referenceTable (run) {
  const { env } = run.index
  const first = run.records[0]
  const pinning = first?.load.pinning
  const levels = [...new Set(run.records.map((record) => record.load.connections))].join(', ')
  const overview = wallClockOverview(run)
  return [
    REFERENCE_START,
    `Run \`${run.index.runId}\`: ${env.cpu.model}, ${env.cpu.cores} cores, ${Math.round(env.memoryBytes / 2 ** 30)} GiB, ` +
      `${env.os.type} ${env.os.release}, ` +
      `Node ${env.node}; ${
        first
          ? `measured by ${[...new Set(run.records.map((record) => `${record.load.engine} ${record.load.engineVersion}`))].join(' and ')}` +
            `${run.index.engineChoice?.by === 'calibration' ? ` (${run.index.engineChoice.reason})` : ''}, ${levels} connections, ` +
            `${loadTimesText(first.load)}, ` +
            `${first.repeat.of} round${first.repeat.of > 1 ? 's, each a fresh launch of the SUT' : ''}`
          : 'no runs'
      }; ` +
      (pinning?.pinned
        ? `SUT on cpu ${pinning.sutCpus?.join(',')}, load generator on cpu ${pinning.generatorCpus?.join(',')}; `
        : 'not pinned; ') +
      `commit ${String(env.git.commit ?? 'unknown').slice(0, 12)}.`,
    '',
    ...(overview ? overviewMarkdown(overview) : ['No results.']),
    REFERENCE_END
  ].map((line) => line.startsWith('<!-- dyno:reference:') ? line : inertMarkdown(line)).join('\n')
}

/**
 * The README with its reference block replaced.
 * @param {string} readme
 * @param {string} block
 * @returns {string}
 * @throws {Error} when the README has no markers
 */
export function replaceReferenceBlock (readme, block) {
  const start = readme.indexOf(REFERENCE_START)
  const end = readme.indexOf(REFERENCE_END)
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`README.md has no reference block: it needs the line ${REFERENCE_START} and, after it, ${REFERENCE_END}`)
  }
  return readme.slice(0, start) + block + readme.slice(end + REFERENCE_END.length)
}
