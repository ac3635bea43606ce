// @ts-check
import { describeHosts } from './hosts-summary.js'
import { mergedPartsLine, mixedMachinesNote } from './merged-run.js'
import { measureOfRun } from '../../measures/index.js'
import { overviewMarkdown } from '../../measures/overview-text.js'
import { warningGroups } from '../../measures/warning-groups.js'
import { inertMarkdown } from '../../platform/util/inert-markdown.js'
import { explanationsMarkdown, reportExplanations } from '../explain/report-explanations.js'

/**
 * The run as markdown: its title, its overview (frameworks × scenarios), its warnings grouped by cause (each result under its line),
 * what its measure writes of it (the wall clock's tables per scenario fastest first, with rank groups and
 * intervals; the counts of instructions), then the environment. Every figure comes from the result files.
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {string}
 */
export function markdownReport (run) {
  const mixed = mixedMachinesNote(run.index)
  const lines = [`# dyno run ${run.index.runId}`, '', ...(mixed ? [`> ${mixed}`, ''] : [])]
  const measure = measureOfRun(run)
  const overview = measure.report.overview(run)
  if (overview) lines.push('## Overview', '', ...(mixed ? [`> ${mixed}`, ''] : []), ...overviewMarkdown(overview), '')
  const warnings = warningGroups(run.records)
  if (warnings.length > 0) {
    const listed = warnings.flatMap((group) => [`- ${group.line}`, ...group.details.map((detail) => `  - ${detail}`)])
    lines.push('## Warnings', '', ...listed, '')
  }
  lines.push(...measure.report.markdownBody(run, { mixed }))
  lines.push(...explanationsMarkdown(reportExplanations([run])))
  lines.push('## Environment', '', ...environmentLines(run), '')
  return inertMarkdown(lines.join('\n'))
}

/** @param {import('../../records/read-run.js').RunData} run */
function environmentLines (run) {
  const { env } = run.index
  const first = run.records[0]
  const pinning = first?.load.pinning
  const services = Object.entries(env.services ?? {}).map(
    ([name, service]) => `${name} ${/** @type {{ version: string }} */ (service).version}`
  )
  const acrossHosts = describeHosts(env, run.records)
  const parts = mergedPartsLine(run.index)
  return [
    ...(parts ? [`- merged from ${parts}`] : []),
    ...acrossHosts.hosts.map((line) => `- ${line}`),
    ...(acrossHosts.link ? [`- ${acrossHosts.link}`] : []),
    `- CPU: ${env.cpu.model}, ${env.cpu.cores} cores, ${Math.round(env.memoryBytes / 2 ** 30)} GiB`,
    `- OS: ${env.os.type} ${env.os.release} (${env.os.arch}); Node ${env.node}`,
    `- load: ${measureOfRun(run).report.loadLine(run)}`,
    `- pinning: ${
      pinning
        ? pinning.pinned
          ? `SUT on cpu ${pinning.sutCpus?.join(',')}, generator on cpu ${pinning.generatorCpus?.join(',')}`
          : `off (${pinning.reason})`
        : '-'
    }`,
    ...(services.length > 0 ? [`- services: ${services.join(', ')}`] : []),
    `- dyno ${env.harnessVersion}, commit ${env.git.commit ?? 'unknown'}${env.git.dirty ? ' (with uncommitted changes)' : ''}`
  ]
}

/**
 * Several runs side by side (for example Node 20 against Node 22), as the first run's measure sets them, then each run's environment.
 * @param {import('../../records/read-run.js').RunData[]} runs
 * @param {string[]} labels what tells the runs apart
 * @returns {string}
 */
export function markdownSideBySide (runs, labels) {
  const mixed = runs.map((run, index) => [labels[index], mixedMachinesNote(run.index)]).filter(([, note]) => note !== null)
    .map(([label, note]) => `> ${label}: ${note}`)
  const lines = [`# dyno: ${labels.join(' vs ')}`, '', ...(mixed.length > 0 ? [...mixed, ''] : [])]
  lines.push(...measureOfRun(runs[0]).report.sideBySide(runs, labels, { mixed }))
  lines.push(...explanationsMarkdown(reportExplanations(runs)))
  runs.forEach((run, index) => lines.push(`## Environment: ${labels[index]}`, '', ...environmentLines(run), ''))
  return inertMarkdown(lines.join('\n'))
}
