// @ts-check
// What held against hostile input before anyone had to fix it, kept tested in one list so that it keeps holding:
// - the workflows and the framework action take inputs into their scripts through `env:` only, never `${{ }}` in a script;
//   `pull_request_target` only for the dataset gate, which runs the base's checker; read-only permissions; every action pinned by
//   commit and pnpm by exact version, and so is every action the documentation shows (dyno's own in docs/framework-ci.md);
// - ssh runs in batch mode, with `--` before the host, and no host key check is ever weakened;
// - a hostile checkout directory on a host reaches its shell as one word;
// - npm, git and every other program dyno starts are started without a shell, and npm gets `--` before every package it looks up;
// - `$(id)`, `file:`, `git+https:`, `__proto__` and `path:/etc/passwd` as a framework's version are refused, exit 2;
// - report.html writes every field from data as text;
// - a directory of 10,000 junk files is refused as a run, exit 2.
// What had to be fixed is proven each in a file named after it: a site and report.html from hostile names run nothing when every
// point is hovered (pages-from-hostile-names-run-nothing-when-every-point-is-hovered); hostile timeline data and runs are refused
// before anything is written (hostile-timeline-data-is-refused-before-anything-is-written); site.yml offers the repository only
// the records it added (a-sites-new-records-are-proposed-as-a-pull-request-that-adds-records-only); what a SUT writes is read as data
// (what-a-sut-writes-beside-itself-is-read-as-data); other processes are named without their arguments
// (other-processes-are-named-without-their-arguments, and other-processes-arguments-are-written-nowhere beside a real run).
// What a SUT, a host or a pull request could do, each proven in its own file: a SUT that lies about lengths, trickles or floods ends
// as an invalid cell with its reason (a-sut-that-lies-trickles-or-floods-ends-as-an-invalid-cell-with-its-reason; the native engine's
// own: native-engine-survives-a-server-that-lies-about-lengths, its cap on a body being `--max-body-mib`, refused outside its bounds:
// native-engine-caps-bodies-at-max-body-mib); every read verification makes is bounded in bytes and time
// (verification-reads-are-bounded-in-bytes-and-time); a SUT cannot forge the guard's lines (a-sut-cannot-forge-the-guards-lines);
// the cache's seal key is trusted only as dyno wrote it (the-cache-seal-is-trusted-only-as-dyno-wrote-it); every script dyno runs on
// a host answers past whatever the host's login prints (a-script-on-a-host-answers-past-what-its-login-prints); certificate copies on
// hosts are read past login noise and removed when a host fails
// (certificate-copies-are-read-past-login-noise-and-removed-when-a-host-fails); a fork that edits the dataset gate is checked by the
// base's gate (a-fork-that-edits-the-dataset-gate-is-checked-by-the-bases-gate); a rate no schedule can keep is refused
// (rate-refuses-a-rate-no-schedule-can-keep); an objective is parsed once and judged exactly
// (an-objective-is-parsed-once-and-judged-exactly).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { shellQuote, sshArgv } from '../../src/platform/hosts/ssh/ssh-command.js'
import { HARNESS_DIR, REPO_ROOT } from '../../src/platform/paths.js'
import { htmlReport } from '../../src/reports/report/html-report.js'
import { readRun } from '../../src/records/read-run.js'
import { copyOfRun, FOUR_REPEATS } from '../support/compare-inputs.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

const WORKFLOW_DIR = join(REPO_ROOT, '.github', 'workflows')
const ACTION = join(REPO_ROOT, 'action.yml')
const SCRIPT_DIR = join(REPO_ROOT, '.github', 'scripts')

/** @returns {{ file: string, document: any }[]} every workflow and the framework action, parsed */
function workflowFiles () {
  return [...readdirSync(WORKFLOW_DIR).map((name) => join(WORKFLOW_DIR, name)), ACTION]
    .map((file) => ({ file: relative(REPO_ROOT, file), document: parse(readFileSync(file, 'utf8')) }))
}

/** @param {any} document @returns {any[]} every step of every job (a workflow) or of the composite action */
const stepsOf = (document) => document.jobs
  ? Object.values(document.jobs).flatMap((/** @type {any} */ job) => job.steps ?? [])
  : document.runs?.steps ?? []

/** @param {string} dir @returns {string[]} every .js file under dir */
function sourceFiles (dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath, entry.name))
}

describe('the workflows and the framework action', () => {
  it('take inputs into scripts through env only, pull_request_target only for the base\'s checker, with read-only permissions', () => {
    const files = workflowFiles()
    expect(files.length).toBeGreaterThanOrEqual(4)
    for (const { file, document } of files) {
      for (const step of stepsOf(document)) {
        if (typeof step.run === 'string') expect(step.run, `${file}: a run step`).not.toContain('${{')
      }
      if (!document.jobs) continue
      const triggers = typeof document.on === 'string' ? [document.on] : Object.keys(document.on ?? {})
      // pull_request_target runs with the base's secrets on a fork's pull request: only the dataset gate takes it, and only to run the
      // base's own checker on the pull request's files read as git objects. Its token reads, and no checkout names the head.
      if (triggers.includes('pull_request_target')) {
        expect(file, 'the one workflow on pull_request_target').toBe('.github/workflows/dataset.yml')
        expect(triggers).toEqual(['pull_request_target'])
        expect(document.permissions).toEqual({ contents: 'read' })
        for (const step of stepsOf(document)) {
          expect(step.with?.ref, `${file}: a checkout of the base only`).toBeUndefined()
          if (typeof step.run === 'string') expect(step.run).toBe('bash .github/scripts/dataset-check.sh')
        }
      }
      expect(document.permissions, `${file}: top-level permissions`).toBeDefined()
      // The two exceptions. GitHub Pages' own deployment, a job that runs deploy-pages and nothing else, may write the Pages site.
      const pagesDeploy = (/** @type {any} */ job) => job.steps?.length === 1 && /^actions\/deploy-pages@/.test(job.steps[0].uses ?? '') &&
        JSON.stringify(job.permissions) === JSON.stringify({ pages: 'write', 'id-token': 'write' })
      // site.yml's proposal of the records its run added: on the default branch only, its checkout, the artifact of the run's own
      // publish job, and the script that checks the files' names and kinds and hands them to git and gh; no dyno code, no install.
      const recordsProposal = (/** @type {any} */ job) =>
        JSON.stringify(job.permissions) === JSON.stringify({ contents: 'write', 'pull-requests': 'write' }) &&
        job.if === 'github.ref_name == github.event.repository.default_branch' &&
        job.steps?.length === 3 && /^actions\/checkout@/.test(job.steps[0].uses ?? '') &&
        /^actions\/download-artifact@/.test(job.steps[1].uses ?? '') && job.steps[1].with?.name === 'dyno-timeline-new-records' &&
        job.steps[2].run === 'bash .github/scripts/timeline-propose.sh'
      const grants = [
        document.permissions,
        ...Object.values(document.jobs)
          .filter((job) => !pagesDeploy(job) && !recordsProposal(job))
          .map((/** @type {any} */ job) => job.permissions)
      ].filter((grant) => grant !== undefined)
      if (file.endsWith('site.yml')) expect(Object.values(document.jobs).filter(recordsProposal), file).toHaveLength(1)
      for (const grant of grants) {
        if (typeof grant === 'string') expect(['read-all', '{}'], file).toContain(grant)
        else {
          expect(
            Object.values(grant).every((level) => level === 'read' || level === 'none'),
            `${file}: ${JSON.stringify(grant)}`
          ).toBe(true)
        }
      }
    }
  })

  it('pin every action by commit and pnpm by exact version', () => {
    for (const { file, document } of workflowFiles()) {
      for (const step of stepsOf(document).filter((one) => typeof one.uses === 'string' && !one.uses.startsWith('../'))) {
        expect(step.uses, file).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/)
      }
    }
    const texts = [
      ...workflowFiles().map(({ file }) => file),
      ...readdirSync(SCRIPT_DIR).map((name) => relative(REPO_ROOT, join(SCRIPT_DIR, name)))
    ].map((file) => ({ file, text: readFileSync(join(REPO_ROOT, file), 'utf8') }))
    const pnpmInstalls = texts.flatMap(({ file, text }) =>
      [...text.matchAll(/pnpm@([^\s;'"]+)/g)].map((match) => ({ file, version: match[1] }))
    )
    expect(pnpmInstalls.length).toBeGreaterThan(0)
    for (const { file, version } of pnpmInstalls) expect(version, file).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it('are shown pinned by commit in the documentation too, dyno\'s own action included', () => {
    const docs = [join(REPO_ROOT, 'README.md'), ...readdirSync(join(REPO_ROOT, 'docs')).map((name) => join(REPO_ROOT, 'docs', name))]
      .filter((file) => file.endsWith('.md'))
    const shown = docs.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g)]
      .flatMap((block) => stepsOf(parse(block[1]) ?? {}).filter((step) => typeof step.uses === 'string' && !step.uses.startsWith('./')))
      .map((step) => ({ file: relative(REPO_ROOT, file), uses: step.uses })))
    expect(shown.filter(({ uses }) => uses.startsWith('dyno-dev/dyno@'))).toHaveLength(1)
    for (const { file, uses } of shown) expect(uses, file).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/)
  })
})

describe('ssh', () => {
  it('runs in batch mode with `--` before the host, and no file of dyno weakens a host key check', () => {
    const argv = sshArgv(
      { kind: 'ssh', url: 'ssh://bench@sut-host:2222/dyno', hostname: 'sut-host', user: 'bench', port: 2222, dir: '/srv/dyno' },
      ['node', '-v']
    )
    expect(argv.join(' ')).toContain('-o BatchMode=yes')
    expect(argv.at(-3)).toBe('--')
    expect(argv.at(-2)).toBe('sut-host')
    for (const file of sourceFiles(join(HARNESS_DIR, 'src'))) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(
        /StrictHostKeyChecking|UserKnownHostsFile|CheckHostIP=no|-o\s*'?VerifyHostKeyDNS/
      )
    }
  })

  it('gives the host\'s shell a hostile checkout directory as one word', () => {
    const root = mkdtempSync(join(tmpdir(), 'dyno-hostile-dirs-'))
    for (const name of ['a b', '$(id)', '`id`', "it's", 'x;touch pwned', 'new\nline', '-rf', '*']) {
      const dir = join(root, name)
      mkdirSync(dir)
      // What ssh hands the login shell there: here, the same POSIX shell.
      const remote = /** @type {string} */ (
        sshArgv({ kind: 'ssh', url: 'ssh://h', hostname: 'h', user: null, port: null, dir }, ['pwd']).at(-1)
      )
      expect(execFileSync('sh', ['-c', remote], { encoding: 'utf8' })).toBe(`${dir}\n`)
      // And through a second shell, as a command that itself runs `sh -c` there (prepare-host.js unpacking a checkout).
      expect(execFileSync('sh', ['-c', `sh -c ${shellQuote(`cd ${shellQuote(dir)} && pwd`)}`], { encoding: 'utf8' })).toBe(`${dir}\n`)
    }
    expect(readdirSync(root).sort()).not.toContain('pwned')
    expect(readdirSync(process.cwd())).not.toContain('pwned')
  })
})

describe('programs dyno starts', () => {
  it('include npm only with `--` before the package it looks up, so that no name is read as an option', () => {
    const views = sourceFiles(join(HARNESS_DIR, 'src')).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\['view',[^\]]*\]/g)]
      .map((match) => ({ file, call: match[0] })))
    // The registry's versions and integrities (registry-facts.js) and its publish dates (registry-releases.js).
    expect(views.length).toBeGreaterThanOrEqual(2)
    for (const { file, call } of views) expect(call, file).toMatch(/^\['view', '--json', '--', /)
  })

  it('are started without a shell: no shell option, no exec() of a command line', () => {
    for (const file of sourceFiles(join(HARNESS_DIR, 'src'))) {
      const text = readFileSync(file, 'utf8')
      expect(text, file).not.toMatch(/shell:\s*true/)
      expect(text, file).not.toMatch(/(?<![.\w])exec(Sync)?\(/)
      expect(text, file).not.toMatch(/import\s*\{[^}]*\bexec(Sync)?\b[^}]*\}\s*from\s*'node:child_process'/)
    }
  })
})

describe('a framework version', () => {
  it.each([
    ['express@$(id)', /DYNO_ERR_INVALID_OPTION: .*`\$\(id\)` is neither a version, a range nor a dist-tag/],
    ['express@file:/tmp', /DYNO_ERR_INVALID_OPTION: .*`file:\/tmp` is neither a version, a range nor a dist-tag/],
    ['express@git+https://example.invalid/x.git', /DYNO_ERR_INVALID_OPTION: .*`git\+https:\/\/example\.invalid\/x\.git` is neither/],
    ['express@__proto__', /DYNO_ERR_INVALID_OPTION: .*`__proto__` is neither a version, a range nor a dist-tag/],
    ['__proto__', /DYNO_ERR_UNKNOWN_FRAMEWORK: `--frameworks`: unknown framework `__proto__`/],
    ['express@path:/etc/passwd', /DYNO_ERR_UNKNOWN_VERSION: `--frameworks` `express@path:\/etc\/passwd`: \/etc\/passwd is not a directory/]
  ])('%s is refused with exit 2, nothing run or written', async (value, says) => {
    const out = join(tmpdir(), `dyno-never-${process.pid}`)
    const result = await runCli(['run', '--frameworks', value, '--out', out])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(says)
    expect(() => readdirSync(out)).toThrow()
  })
})

describe('report.html', () => {
  it('writes every field from data as text', () => {
    const dir = copyOfRun(FOUR_REPEATS)
    const index = writtenIndex(dir)
    for (const entry of index.results) {
      const path = join(dir, entry.file)
      const record = JSON.parse(readFileSync(path, 'utf8'))
      record.sut.label = 'node-http<script>alert(1)</script>'
      record.sut.frameworkVersion = '"><img src=x onerror=alert(2)>'
      record.env.cpu.model = '</script><script>alert(3)</script>'
      writeFileSync(path, JSON.stringify(record))
    }
    const html = htmlReport([readRun(dir)])
    expect(html).not.toContain('<script>alert(')
    expect(html).not.toContain('<img src=x')
    expect(html).not.toContain('</script><script>')
  })
})

describe('a directory of junk', () => {
  it('is refused as a run, exit 2, whatever it holds', async () => {
    const junk = mkdtempSync(join(tmpdir(), 'dyno-junk-'))
    for (let at = 0; at < 10_000; at++) writeFileSync(join(junk, `junk-${at}.json`), '{')
    const other = mkdtempSync(join(tmpdir(), 'dyno-junk-'))
    writeFileSync(join(other, 'junk.json'), '{')
    for (const argv of [['report', junk], ['compare', junk, junk], ['merge', junk, other, '--out', join(junk, 'never')]]) {
      const result = await runCli(argv)
      expect(result.code, `${argv[0]}: ${result.stderr}`).toBe(2)
      expect(result.stderr).toMatch(/^DYNO_ERR_\w+: .*(no run\.json|not a dyno run directory|holds no run)/)
      expect(result.stderr.length).toBeLessThan(2000)
    }
    expect(readdirSync(junk)).toHaveLength(10_000)
  }, 180_000) // three commands, each reading 10,000 files: a bound for a machine at a third of its speed, not a verdict on it
})
