// @ts-check
// Which tests flip: runs each given test file again and again, alone on the machine or beside a busy loop on every cpu, and counts
// the runs that failed and what they failed on. Each trial is one `vitest run <file>` in a process of its own, bounded in time; the
// busy loops (one pinned to each cpu, ending by themselves after the trial's bound) are killed when it ends. Every trial is appended
// to the data file as it ends, so a census stopped midway keeps what it measured, and several censuses (other files, other days)
// add up; `--write` puts the table of every trial in the data file into docs/development.md.
//   node harness/bench/test-census.js --runs 20 --beside alone,hog <test file>...
//   node harness/bench/test-census.js --write
import { execFileSync, spawn } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, constants, tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { HARNESS_DIR, REPO_ROOT } from '../src/platform/paths.js'
import { writeMeasuredBlock } from './support/measured-block.js'

const CONDITIONS = ['alone', 'hog']
const DEVELOPMENT_DOC = join(REPO_ROOT, 'docs', 'development.md')

const USAGE = 'usage: node harness/bench/test-census.js [--runs N] [--beside alone,hog] [--timeout-sec S] [--data FILE] <test file>...\n' +
  '       node harness/bench/test-census.js --write [--data FILE]'

/** A bad argument: said in one line, naming it and what is allowed, and nothing run. @param {string} message @returns {never} */
function refuse (message) {
  process.stderr.write(`test-census: ${message}\n${USAGE}\n`)
  process.exit(2)
}

/** @returns {ReturnType<typeof parseCensusArgs>} */
function parsedArgs () {
  try {
    return parseCensusArgs()
  } catch (error) {
    return refuse(/** @type {Error} */ (error).message.split('.')[0])
  }
}

function parseCensusArgs () {
  return parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '20' },
      beside: { type: 'string', default: CONDITIONS.join(',') },
      'timeout-sec': { type: 'string', default: '900' },
      data: { type: 'string', default: join(REPO_ROOT, 'results', 'test-census.jsonl') },
      write: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false }
    }
  })
}

const { values, positionals } = parsedArgs()
if (values.help) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}

/** @param {string} name @param {string} text @returns {number} */
function wholeNumber (name, text) {
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < 1) refuse(`--${name} must be a whole number ≥ 1, got \`${text}\``)
  return value
}

const runs = wholeNumber('runs', values.runs)
const timeoutSec = wholeNumber('timeout-sec', values['timeout-sec'])
const conditions = values.beside.split(',')
for (const condition of conditions) {
  if (!CONDITIONS.includes(condition)) refuse(`--beside takes ${CONDITIONS.join(', ')}, got \`${condition}\``)
}
const files = positionals.map((file) => relative(HARNESS_DIR, resolve(file)))
for (const file of files) {
  if (file.startsWith('..') || !file.endsWith('.test.js') || !existsSync(join(HARNESS_DIR, file))) {
    refuse(`a test file of harness/test is wanted, got \`${file}\``)
  }
}
if (!values.write && files.length === 0) refuse('name the test files to run, or give --write')

/**
 * A busy loop pinned to each cpu, each ending by itself after `boundSec` even if this script is killed.
 * @param {number} boundSec @returns {number[]} their pids
 */
function startHogs (boundSec) {
  const loop = `const end = Date.now() + ${boundSec * 1000}; while (Date.now() < end);`
  return Array.from({ length: availableParallelism() }, (_, cpu) => Number(execFileSync('sh',
    ['-c', `taskset -c ${cpu} "$0" -e "$1" >/dev/null 2>&1 & echo $!`, process.execPath, loop], { encoding: 'utf8' })))
}

/** @param {number[]} pids */
function stopHogs (pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // ended by itself
    }
  }
}

/** What runs now: the trial's process group (it runs detached, so that its SUTs go with it) and the busy loops. */
const running = { trialGroup: /** @type {number | null | undefined} */ (null), hogs: /** @type {number[]} */ ([]) }

/** @param {number | null | undefined} pid a process group's leader */
function killGroup (pid) {
  try {
    if (pid) process.kill(-pid, 'SIGKILL')
  } catch {
    // ended already
  }
}

// Ctrl-C (or a kill) ends the trial under way and the loops with the census: the trials already ended are in the data file.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    killGroup(running.trialGroup)
    stopHogs(running.hogs)
    process.stderr.write(`test-census: stopped by ${signal}; the trials that ended are in ${values.data}\n`)
    process.exit(128 + constants.signals[signal])
  })
}

/**
 * One `vitest run` of one file, bounded in time; its JSON report read back.
 * @param {string} file @returns {Promise<{ passed: boolean, sec: number, failures: string[] }>} failures: each failed test and the
 *   first line of its first error
 */
async function trial (file) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-census-'))
  const report = join(dir, 'report.json')
  const startedAt = performance.now()
  const code = await new Promise((resolve) => {
    const child = spawn('pnpm', ['exec', 'vitest', 'run', file, '--reporter=json', `--outputFile=${report}`],
      { cwd: HARNESS_DIR, stdio: 'ignore', detached: true })
    running.trialGroup = child.pid ?? null
    const timer = setTimeout(() => killGroup(child.pid), timeoutSec * 1000)
    child.on('exit', (exitCode) => { clearTimeout(timer); running.trialGroup = null; resolve(exitCode) })
  })
  const sec = Math.round((performance.now() - startedAt) / 100) / 10
  /** @type {string[]} */
  const failures = []
  try {
    const { testResults } = JSON.parse(readFileSync(report, 'utf8'))
    for (const result of testResults) {
      for (const assertion of result.assertionResults ?? []) {
        if (assertion.status !== 'failed') continue
        const message = String(assertion.failureMessages?.[0] ?? '').split('\n').find((line) => line.trim()) ?? ''
        failures.push(`${assertion.title}: ${message.trim().slice(0, 300)}`)
      }
      if (result.status === 'failed' && (result.assertionResults ?? []).every((/** @type {any} */ a) => a.status !== 'failed')) {
        failures.push(`the file: ${String(result.message ?? '').split('\n')[0].slice(0, 300)}`)
      }
    }
  } catch {
    failures.push(code === null ? `no report: killed after ${timeoutSec} s` : `no report (vitest exited ${code})`)
  }
  rmSync(dir, { recursive: true, force: true })
  return { passed: code === 0 && failures.length === 0, sec, failures }
}

if (files.length > 0) {
  mkdirSync(dirname(values.data), { recursive: true })
  const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim()
  for (let run = 1; run <= runs; run++) {
    for (const condition of conditions) {
      for (const file of files) {
        running.hogs = condition === 'hog' ? startHogs(timeoutSec + 5) : []
        let outcome
        try {
          outcome = await trial(file)
        } finally {
          stopHogs(running.hogs)
        }
        appendFileSync(values.data, `${JSON.stringify({ file, condition, commit, at: new Date().toISOString(), ...outcome })}\n`)
        process.stdout.write(`${run}/${runs} ${condition} ${file}: ${outcome.passed ? 'passed' : 'FAILED'} in ${outcome.sec} s` +
          `${outcome.failures.map((failure) => `\n    ${failure}`).join('')}\n`)
      }
    }
  }
}

if (values.write) {
  const trials = readFileSync(values.data, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
  /**
   * One row per test file, condition and commit: a test changed to stop flipping is counted apart from the code that flipped.
   * @type {Map<string, { file: string, condition: string, commit: string, runs: number, failed: number, secs: number[],
   *   causes: Map<string, number> }>}
   */
  const rows = new Map()
  for (const entry of trials) {
    const key = `${entry.file} ${entry.condition} ${entry.commit}`
    const row = rows.get(key) ?? {
      file: entry.file,
      condition: entry.condition,
      commit: entry.commit,
      runs: 0,
      failed: 0,
      secs: /** @type {number[]} */ ([]),
      causes: new Map()
    }
    row.runs++
    row.secs.push(entry.sec)
    if (!entry.passed) {
      row.failed++
      for (const failure of entry.failures) row.causes.set(failure, (row.causes.get(failure) ?? 0) + 1)
    }
    rows.set(key, row)
  }
  const cell = (/** @type {string} */ text) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
  const median = (/** @type {number[]} */ list) => list.toSorted((a, b) => a - b)[Math.floor(list.length / 2)]
  const lines = [
    '| test file | commit | beside | runs | failed | median s | what failed (times) |',
    '| --- | --- | --- | ---: | ---: | ---: | --- |',
    ...[...rows.values()]
      .sort((a, b) => a.file.localeCompare(b.file) || a.commit.localeCompare(b.commit) || a.condition.localeCompare(b.condition))
      .map((row) => `| ${cell(row.file.replace(/^test\//, ''))} | ${row.commit.slice(0, 7)} | ` +
        `${row.condition === 'hog' ? 'a busy loop on every cpu' : 'nothing'} | ${row.runs} | ${row.failed} | ${median(row.secs)} | ` +
        `${cell([...row.causes].map(([cause, times]) => `${cause} (${times})`).join('; ') || '-')} |`)
  ]
  writeMeasuredBlock({ script: import.meta.url, lines, file: DEVELOPMENT_DOC })
}
