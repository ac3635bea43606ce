// @ts-check
import { atMachineLimit } from '../../load/engines/index.js'
import { describeHosts } from './hosts-summary.js'
import { mergedPartsLine, mixedMachinesNote } from './merged-run.js'
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { intervalText, rankNotes, rankText } from './rank-text.js'
import { COUNT_COLUMNS, COUNT_FIGURE_COLUMNS, countRows, countSettingsLine, isCountRun } from './instruction-count-rows.js'
import { contractPlace } from './scenario-order.js'
import { inertMarkdown } from '../../platform/util/inert-markdown.js'
import { WARMUP_COLUMNS, WARMUP_FIGURE_COLUMNS, warmupCells, warmupClassification } from './warmup-classification-model.js'

/** @param {string} text a table cell: no pipes, no line breaks */
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

/**
 * @typedef {object} ReportRow one SUT at one connection level in one scenario
 * @property {string} sut
 * @property {string} version
 * @property {number} connections
 * @property {import('../../records/aggregate-runs.js').Aggregate | null} aggregate null when no run was ok
 * @property {import('../../records/result-record.js').ResultRecord[]} records
 */

/**
 * Groups a run's records by scenario, then by (SUT, connections), with their aggregate; each scenario's rows by connection
 * level, fastest first (by the figure of each cell, the geometric mean of its runs), the cells never measured last.
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {Map<string, ReportRow[]>}
 */
export function reportRows (run) {
  /** @type {Map<string, ReportRow[]>} */
  const scenarios = new Map()
  for (const record of run.records) {
    const rows = scenarios.get(record.scenario.name) ?? []
    scenarios.set(record.scenario.name, rows)
    let row = rows.find((candidate) => candidate.sut === record.sut.label && candidate.connections === record.load.connections)
    if (!row) {
      const aggregate = run.aggregates.find((entry) =>
        entry.sut === record.sut.label && entry.scenario === record.scenario.name && entry.connections === record.load.connections)
      row = {
        sut: record.sut.label,
        version: record.sut.frameworkVersion ?? '-',
        connections: record.load.connections,
        aggregate: aggregate && aggregate.runs > 0 ? aggregate : null,
        records: []
      }
      rows.push(row)
    }
    row.records.push(record)
  }
  for (const rows of scenarios.values()) {
    rows.sort((a, b) => a.connections - b.connections ||
      (b.aggregate?.requestsPerSec.center ?? -1) - (a.aggregate?.requestsPerSec.center ?? -1) ||
      (a.aggregate?.rank?.best ?? 0) - (b.aggregate?.rank?.best ?? 0))
  }
  // In the contract's order, whatever order shuffled rounds measured them in.
  return new Map([...scenarios].sort(([a], [b]) => contractPlace(a) - contractPlace(b)))
}

/** @param {ReportRow} row */
function flags (row) {
  const notes = []
  if (row.records.some(atMachineLimit)) {
    notes.push('**‡ limit of this machine**: the native engine, the fastest here, was generator-bound')
  } else if (row.records.some((record) => record.summary?.generatorBound)) {
    notes.push('**generator-bound**: measures the load generator, not the framework')
  }
  for (const record of row.records.filter((candidate) => candidate.interference?.disturbed)) {
    notes.push(`**disturbed**${record.repeat.of > 1 ? ` (run ${record.repeat.index})` : ''}: ${record.interference?.detail}`)
  }
  for (const record of row.records.filter((candidate) => candidate.consistency?.passed === false)) {
    notes.push(`**inconsistent**${record.repeat.of > 1 ? ` (run ${record.repeat.index})` : ''}: ` +
      (record.consistency?.checks ?? []).filter((check) => !check.passed).map((check) => `${check.name}: ${check.detail}`).join('; '))
  }
  for (const record of row.records.filter((candidate) => candidate.status !== 'ok')) {
    notes.push(`${record.status}${record.repeat.of > 1 ? ` (run ${record.repeat.index})` : ''}: ${record.reason}`)
  }
  return notes.join('; ')
}

/**
 * The run as markdown: per scenario a table fastest first, with each cell's rank group (the places the data allows it),
 * its figure (the geometric mean of its runs) and 95% interval when repeated, the speed factor against the slowest, p50
 * and p99 from the merged histograms, errors, flags; under it the spread between rounds and the neighbours it cannot
 * tell apart; then the environment. Every figure comes from the result files.
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {string}
 */
export function markdownReport (run) {
  const mixed = mixedMachinesNote(run.index)
  const lines = [`# dyno run ${run.index.runId}`, '', ...(mixed ? [`> ${mixed}`, ''] : [])]
  if (isCountRun(run)) {
    lines.push(`Instructions per request, counted under ${countSettingsLine(run)}.`, '')
    for (const [scenario, rows] of countRows(run)) {
      const rule = COUNT_COLUMNS.map((column) => COUNT_FIGURE_COLUMNS.includes(column) ? '---:' : '---').join('|')
      lines.push(`## ${scenario}`, '', `| ${COUNT_COLUMNS.join(' | ')} |`, `|${rule}|`,
        ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`), '')
    }
    lines.push('## Environment', '', ...environmentLines(run), '')
    return inertMarkdown(lines.join('\n'))
  }
  const repeated = run.records.some((record) => record.repeat.of > 1)
  const warmups = warmupClassification([run])
  for (const [scenario, rows] of reportRows(run)) {
    const levels = [...new Set(rows.map((row) => row.connections))]
    const sweep = levels.length > 1
    lines.push(`## ${scenario}`, '', ...(mixed ? [`> ${mixed}`, ''] : []))
    lines.push(`| rank | framework | version |${sweep ? ' conns |' : ''} req/s |${repeated ? ' 95% interval |' : ''}` +
      ' × slowest | p50 ms | p99 ms | errors | flags |')
    lines.push(`|---:|---|---|${sweep ? '---:|' : ''}---:|${repeated ? '---:|' : ''}---:|---:|---:|---:|---|`)
    for (const row of rows) {
      const slowest = Math.min(...rows
        .filter((other) => other.aggregate && other.connections === row.connections)
        .map((other) => /** @type {NonNullable<typeof other.aggregate>} */ (other.aggregate).requestsPerSec.center))
      const rate = row.aggregate?.requestsPerSec
      const errors = row.records.reduce((sum, record) => sum + (record.summary?.errors ?? 0), 0)
      lines.push(`| ${rankText(row.aggregate?.rank)} | ${cell(row.sut)} | ${cell(row.version)} |${sweep ? ` ${row.connections} |` : ''} ` +
        `${rate ? formatInteger(rate.center) : '-'} |${repeated ? ` ${intervalText(rate?.interval95)} |` : ''}` +
        ` ${rate && slowest > 0 ? `${(rate.center / slowest).toFixed(2)}×` : '-'} | ${formatMs(row.aggregate?.latencyMs?.p50)} |` +
        ` ${formatMs(row.aggregate?.latencyMs?.p99)} |` +
        ` ${formatInteger(errors)} | ${cell(flags(row))} |`)
    }
    const notes = levels.flatMap((connections) => rankNotes(rows.filter((row) => row.connections === connections && row.aggregate)
      .map((row) => /** @type {NonNullable<typeof row.aggregate>} */ (row.aggregate)))
      .map((note) => sweep ? `${connections} connections: ${note}` : note))
    lines.push('', ...(notes.length > 0 ? [...notes.map((note) => `- ${note}`), ''] : []))
    lines.push(...warmupLines(warmups.get(scenario) ?? null, false))
  }
  lines.push('## Environment', '', ...environmentLines(run), '')
  return inertMarkdown(lines.join('\n'))
}

/**
 * A scenario's cells' warm-up as classified, as a table under its own heading; nothing when none of its results has a classification.
 * @param {import('./warmup-classification-model.js').WarmupSection | null} warmup
 * @param {boolean} withRun several runs set side by side: a column names each row's run
 * @returns {string[]}
 */
function warmupLines (warmup, withRun) {
  if (!warmup) return []
  const columns = WARMUP_COLUMNS.filter((column) => withRun || column !== 'run')
  return [
    `### Warm-up, classified: ${warmup.scenario}`,
    '',
    `At ${warmup.connections} connections, each SUT's run of median req/s: warm-up and measured windows as one series since the first ` +
      'request, classified by the change points of its throughput (and of its p50). Before / after: either side of the steady start; ' +
      '`-` where the runtime does not report it (the last column says why).',
    '',
    `| ${columns.join(' | ')} |`,
    `|${columns.map((column) => WARMUP_FIGURE_COLUMNS.includes(column) ? '---:' : '---').join('|')}|`,
    ...warmup.rows.map((row) => `| ${warmupCells(row, withRun).map(cell).join(' | ')} |`),
    ''
  ]
}

/** @param {import('../../records/read-run.js').RunData} run */
function environmentLines (run) {
  const { env, options } = run.index
  const first = run.records[0]
  const pinning = first?.load.pinning
  const services = Object.entries(env.services ?? {}).map(([name, service]) => `${name} ${/** @type {{ version: string }} */ (service).version}`)
  const acrossHosts = describeHosts(env, run.records)
  const parts = mergedPartsLine(run.index)
  return [
    ...(parts ? [`- merged from ${parts}`] : []),
    ...acrossHosts.hosts.map((line) => `- ${line}`),
    ...(acrossHosts.link ? [`- ${acrossHosts.link}`] : []),
    `- CPU: ${env.cpu.model}, ${env.cpu.cores} cores, ${Math.round(env.memoryBytes / 2 ** 30)} GiB`,
    `- OS: ${env.os.type} ${env.os.release} (${env.os.arch}); Node ${env.node}`,
    isCountRun(run)
      ? '- load: none; instruction counts (above)'
      : `- load: ${first ? `${first.load.engine} ${first.load.engineVersion}` : '-'}, profile ${options.profile ?? '-'}, ` +
      `connections ${[].concat(options.connections ?? []).join(', ') || '-'}, ${options.warmupSec ?? '-'} s warmup + ${options.durationSec ?? '-'} s, ` +
      `${options.repeats ?? 1} repeat${(options.repeats ?? 1) > 1 ? 's' : ''}${options.ratePerSec ? `, open model at ${options.ratePerSec} req/s` : ''}`,
    `- pinning: ${pinning
      ? (pinning.pinned ? `SUT on cpu ${pinning.sutCpus?.join(',')}, generator on cpu ${pinning.generatorCpus?.join(',')}` : `off (${pinning.reason})`)
      : '-'}`,
    ...(services.length > 0 ? [`- services: ${services.join(', ')}`] : []),
    `- dyno ${env.harnessVersion}, commit ${env.git.commit ?? 'unknown'}${env.git.dirty ? ' (with uncommitted changes)' : ''}`
  ]
}

/**
 * Several runs side by side (for example Node 20 against Node 22): per scenario and connection level,
 * each SUT's req/s (the geometric mean of its runs) and p99 in every run, and the req/s of each later run relative to the first.
 * @param {import('../../records/read-run.js').RunData[]} runs
 * @param {string[]} labels what tells the runs apart
 * @returns {string}
 */
export function markdownSideBySide (runs, labels) {
  const perRun = runs.map((run) => reportRows(run))
  const scenarios = [...new Set(perRun.flatMap((rows) => [...rows.keys()]))]
  const mixed = runs.map((run, index) => [labels[index], mixedMachinesNote(run.index)]).filter(([, note]) => note !== null)
    .map(([label, note]) => `> ${label}: ${note}`)
  const lines = [`# dyno: ${labels.join(' vs ')}`, '', ...(mixed.length > 0 ? [...mixed, ''] : [])]
  const warmups = warmupClassification(runs)
  for (const scenario of scenarios) {
    lines.push(`## ${scenario}`, '', ...(mixed.length > 0 ? [...mixed, ''] : []))
    lines.push(`| framework | conns |${labels.map((label) => ` ${cell(label)} req/s | p99 ms |`).join('')}` +
      `${labels.slice(1).map((label) => ` ${cell(label)} vs ${cell(labels[0])} |`).join('')}`)
    lines.push(`|---|---:|${labels.map(() => '---:|---:|').join('')}${labels.slice(1).map(() => '---:|').join('')}`)
    const keys = [...new Map(perRun.flatMap((rows) => (rows.get(scenario) ?? []).map((row) => [`${row.sut}@${row.connections}`, row]))).values()]
    for (const key of keys) {
      const rows = perRun.map((scenarioRows) => (scenarioRows.get(scenario) ?? []).find((row) => row.sut === key.sut && row.connections === key.connections))
      const figures = rows.map((row) => row?.aggregate?.requestsPerSec.center ?? null)
      lines.push(`| ${cell(key.sut)} | ${key.connections} |` +
        `${rows.map((row, index) => ` ${figures[index] === null ? (row ? row.records[0].status : '-') : formatInteger(figures[index])} |` +
          ` ${formatMs(row?.aggregate?.latencyMs?.p99)} |`).join('')}` +
        `${figures.slice(1).map((value) => ` ${value !== null && figures[0] ? `${(value / figures[0]).toFixed(2)}×` : '-'} |`).join('')}`)
    }
    lines.push('', ...warmupLines(warmups.get(scenario) ?? null, true))
  }
  runs.forEach((run, index) => lines.push(`## Environment: ${labels[index]}`, '', ...environmentLines(run), ''))
  return inertMarkdown(lines.join('\n'))
}
