// @ts-check
import { writeReports } from '../../reports/report/write-reports.js'

/** @type {import('../cli/command.js').Command} */
export const REPORT_COMMAND = {
  name: 'report',
  args: ['[...runDirs]'],
  summary:
    'Write report.md and report.html into each run directory (default: the latest run; several: also side-by-side.md/.html in the last) ' +
    'and print their paths',
  options: [],
  run: async ({ positionals }, io) => {
    for (const path of writeReports(positionals)) io.stdout.write(`${path}\n`)
    return 0
  }
}
