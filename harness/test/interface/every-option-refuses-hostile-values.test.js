// @ts-check
// Every option of every command, taken from the option table (an option added tomorrow is covered the day it
// is added), and every path a command reads or writes, gets the values people mistype or misplace: empty,
// negative, zero, huge, not a number, a file where a directory is meant, a place where nothing can be written.
// Each must end at once with exit 2, a DYNO_ERR_ code, the bad value named, and no stack trace.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { COMMAND_OPTIONS } from '../../src/interface/cli/command-table.js'
import { flagName } from '../../src/platform/options/option-spec.js'
import { outputRead } from '../../src/platform/process/output-read.js'

const BATCH = fileURLToPath(new URL('../support/cli-batch.js', import.meta.url))
/**
 * One bad command line must be answered at once: within this time, or ten times the slowest of a few refusals measured
 * first in the same test (a machine busy with other tests makes every answer slower alike).
 */
const PER_CASE_MS = 3000
/** How long the batch process may take to load the CLI before its first command line. */
const LOAD_LIMIT_MS = 60_000
/** Refusals that involve nothing but parsing: the baseline of how long an answer takes on this machine now. */
const BASELINE_CASES = [['run', '--connections', 'abc'], ['run', '--frobnicate'], ['launch']]

/**
 * The values an option of this domain must refuse.
 * @param {import('../../src/platform/options/option-parsers.js').OptionDomain} domain
 * @returns {string[]}
 */
function hostileValues (domain) {
  const common = ['', 'abc', '-1']
  switch (domain.kind) {
    case 'whole':
    case 'wholeList':
    case 'seconds':
    case 'positive':
    case 'percentage': {
      const belowRange = domain.minExclusive ? String(domain.min) : domain.min > 0 ? String(domain.min - 1) : null
      const aboveRange = [String(domain.max + 1), ...(domain.maxExclusive ? [String(domain.max)] : [])]
      return [
        ...common,
        ...(belowRange ? [belowRange] : []),
        ...aboveRange,
        '99999999999999999999',
        '1e3',
        'NaN',
        '/etc/passwd',
        ...(domain.kind === 'whole' || domain.kind === 'wholeList' ? ['1.5'] : []),
        ...(domain.kind === 'wholeList' ? ['10,,20', '10,abc'] : [])
      ]
    }
    case 'oneOf':
    case 'subset':
      // Run together, two allowed values are none of them (one alone is itself: `dyno capacity --measure capacity`).
      return [...common, '0', '/etc/passwd', ...(domain.allowed.length > 1 ? [domain.allowed.join('')] : [])]
    case 'names':
      return [...common, '0', ',', '/etc/passwd']
    case 'pin':
      return [...common, '0', 'sut=0', 'gen=0', 'sut=99,gen=98']
    case 'hostList':
      return [...common, ',', 'local,local', 'local,http://host', 'ssh://a,ssh://a', 'local,ssh://-oProxyCommand', '/etc/passwd']
    case 'host':
      // A host that begins with `-` would be an option to ssh.
      return [
        ...common,
        'http://host',
        'ssh://',
        'ssh://user:password@host',
        'ssh://host?x=1',
        'ssh://bad user@host',
        'ssh://-oProxyCommand',
        'ssh://-v',
        '/etc/passwd'
      ]
    case 'shard':
      return [...common, '0/3', '4/3', '1/0', 'a/b', '1/3/5', '2', '/etc/passwd']
    case 'outputDirectory':
      return ['', '/etc/passwd', '/etc/passwd/results', '/proc/dyno-results', '/sys/dyno-results']
    case 'inputDirectory':
      return ['', '/etc/passwd', '/nonexistent/run', '/dev/zero']
    case 'app':
      return ['', '/etc/passwd', '/nonexistent/service', '/dev/zero', '/proc']
    case 'inputFile':
      return ['', '/nonexistent/openapi.yaml', '/dev/zero', '/proc']
    case 'text':
      return ['', '   ', 'node\nserver.js', 'x'.repeat(4097)]
    case 'flag':
      return ['yes', '', '0']
    case 'objective':
      return [
        ...common,
        '0',
        'p99',
        'p99<=10',
        'p100<=10ms',
        'p0<=1ms',
        'p99<=0ms',
        'p99<=0.4us',
        'p99<=61s',
        'p99<=1000000000000000000000ms',
        'p99<=10parsecs',
        'p99<=10ms,',
        'p99>=10ms',
        '/etc/passwd'
      ]
  }
}

/**
 * What each command needs besides the option under test. Nothing here may be refused first: the options are
 * validated before refs and inputs are looked at, and the results of a run that wrongly starts go to a
 * temporary directory (the watchdog below interrupts it).
 * @param {string} command
 * @param {string} out
 */
function commandLine (command, out) {
  switch (command) {
    case 'run':
      return { before: ['run'], after: ['--out', out] }
    case 'compare':
      return { before: ['compare', 'guard-no-such-baseline', 'guard-no-such-candidate'], after: [] }
    case 'explain':
      return { before: ['explain', 'guard-no-such-baseline', 'guard-no-such-candidate'], after: [] }
    case 'compare-commits':
      return { before: ['compare-commits', 'guard-no-such-ref', 'guard-no-such-ref'], after: ['--out', out] }
    case 'merge':
      return { before: ['merge', 'guard-no-such-part'], after: [] }
    case 'compare-versions':
      return { before: ['compare-versions', 'express', 'express@4.21.2'], after: ['--out', out] }
    case 'timeline':
      return { before: ['timeline', join(out, 'timeline-data')], after: ['--out', out] }
    case 'app':
      return { before: ['app', 'init', join(out, 'service')], after: [] }
    case 'site':
      return { before: ['site', join(out, 'no-such-data')], after: ['--out', join(out, 'site')] }
    case 'bisect':
      return {
        before: ['bisect', 'fastify', join(out, 'no-such-checkout'), 'guard-no-such-ref', 'guard-no-such-ref'],
        after: ['--out', out]
      }
    default:
      return { before: [command], after: [] }
  }
}

/** @returns {{ argv: string[], value: string, flag?: string }[]} */
function optionCases () {
  const out = join(tmpdir(), `dyno-hostile-out-${process.pid}`)
  return Object.entries(COMMAND_OPTIONS).flatMap(([command, specs]) =>
    specs.flatMap((spec) =>
      hostileValues(spec.parse.domain).map((value) => {
        const { before, after } = commandLine(command, out)
        const given = spec.parse.domain.kind === 'flag' ? [`${flagName(spec)}=${value}`] : [flagName(spec), value]
        return { argv: [...before, ...(after[0] === flagName(spec) ? [] : after), ...given], value, flag: flagName(spec) }
      })
    )
  )
}

/**
 * Paths that name the wrong thing where a command reads or writes a directory or a file.
 * @returns {{ argv: string[], value: string, flag?: string }[]}
 */
function pathCases () {
  const dir = join(tmpdir(), `dyno-hostile-${process.pid}`)
  mkdirSync(join(dir, 'empty'), { recursive: true })
  const fifo = join(dir, 'fifo')
  execFileSync('mkfifo', [fifo])
  writeFileSync(join(dir, 'not-json.json'), 'not json')
  return [
    ...['/etc/passwd', join(dir, 'empty'), fifo, '/dev/zero', '/nonexistent/run', ''].map((value) => ({ argv: ['report', value], value })),
    ...['/etc/passwd', join(dir, 'empty'), fifo, '/dev/zero', '/nonexistent/run', join(dir, 'not-json.json'), '']
      .map((value) => ({ argv: ['compare', value, join(dir, 'empty')], value })),
    // What a path is, is checked on both sides before either side is read.
    ...[fifo, '/dev/zero', '/nonexistent/run', ''].map((value) => ({ argv: ['compare', join(dir, 'not-json.json'), value], value })),
    ...['/etc/passwd', join(dir, 'empty'), fifo, '/dev/zero', '/nonexistent/run', join(dir, 'not-json.json'), '']
      .map((value) => ({ argv: ['explain', value, join(dir, 'empty')], value }))
  ]
}

/**
 * Runs the cases in one child process, with a watchdog: a command line that is not answered within
 * `limitMs` (it hangs, or it was wrongly accepted and started working) ends the batch by SIGTERM, which
 * dyno answers by stopping what it started.
 * @param {{ argv: string[] }[]} cases
 * @param {number} limitMs
 * @returns {Promise<{ argv: string[], code: number, stderr: string, stdout: string, elapsedMs: number }[]>}
 */
function runBatch (cases, limitMs) {
  const file = join(tmpdir(), `dyno-hostile-cases-${process.pid}.json`)
  writeFileSync(file, JSON.stringify(cases.map((entry) => entry.argv)))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BATCH, file], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    /** @type {NodeJS.Timeout | undefined} */
    let watchdog
    const underWay = () => stderr.trim().split('\n').at(-1)
    const arm = (/** @type {number} */ ms) => {
      clearTimeout(watchdog)
      watchdog = setTimeout(() => {
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
        reject(new Error(`not answered within ${ms} ms: dyno ${underWay() || '(the CLI still loading)'}`))
      }, ms)
    }
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk; arm(limitMs) })
    // The limit is per command line: loading the CLI before the first one (seconds on a busy machine) is bounded apart.
    arm(LOAD_LIMIT_MS)
    child.on('exit', async (code) => {
      await outputRead([child.stdout, child.stderr])
      clearTimeout(watchdog)
      if (code !== 0) return reject(new Error(`the batch exited ${code}:\n${stderr}`))
      resolve(stdout.trim().split('\n').map((line) => JSON.parse(line)))
    })
  })
}

it('refuses every hostile value of every option and path with exit 2, a code, the value named, at once', async () => {
  const cases = [...optionCases(), ...pathCases()]
  // Every option of every command is covered.
  for (const [command, specs] of Object.entries(COMMAND_OPTIONS)) {
    for (const spec of specs) {
      expect(cases.some((entry) => entry.argv[0] === command && entry.argv.some((arg) => arg.split('=')[0] === flagName(spec))),
        `${command} ${flagName(spec)}`).toBe(true)
    }
  }
  const baseline = await runBatch(BASELINE_CASES.map((argv) => ({ argv })), 60_000)
  expect(baseline.map((outcome) => outcome.code)).toEqual([2, 2, 2])
  const limitMs = Math.max(PER_CASE_MS, 10 * Math.max(...baseline.map((outcome) => outcome.elapsedMs)))
  const outcomes = await runBatch(cases, limitMs)
  expect(outcomes).toHaveLength(cases.length)
  const wrong = outcomes.flatMap((outcome, index) => {
    const { value, flag } = cases[index]
    const problems = [
      flag && !outcome.stderr.includes(`\`${flag}\``) && `the option ${flag} is not named`,
      outcome.code !== 2 && `exit ${outcome.code}`,
      !/^DYNO_ERR_[A-Z_]+: /.test(outcome.stderr) && 'no DYNO_ERR_ code first',
      !outcome.stderr.includes(value === '' ? '``' : value) && 'the value is not named',
      /\n\s+at .+:\d+:\d+/.test(outcome.stderr) && 'a stack trace',
      outcome.elapsedMs > limitMs && `took ${outcome.elapsedMs} ms (the limit here and now: ${limitMs} ms)`
    ].filter(Boolean)
    return problems.length === 0
      ? []
      : [
          `dyno ${outcome.argv.map((arg) => JSON.stringify(arg)).join(' ')}: ${problems.join(', ')}\n    ` +
            `${outcome.stderr.trim().split('\n')[0]}`
        ]
  })
  expect(wrong).toEqual([])
}, 120_000)
