// @ts-check
// `dyno host prepare`: puts this checkout's commit on a host (git archive over ssh, into the checkout directory of its URL), installs
// it there as this one was (`pnpm install --frozen-lockfile`, which builds what the install builds), stamps it with the commit and
// the lockfile, and says what the host lacks for what dyno does there.
import { spawn } from 'node:child_process'
import { hostname } from 'node:os'
import { Readable } from 'node:stream'
import { DynoError } from '../../errors.js'
import { REPO_ROOT } from '../../paths.js'
import { CHECKOUT_STAMP_FILE, lockfileHash } from '../remote/checkout-stamp.js'
import { checkSameCheckout, hostFacts, localCommit } from './ssh-host.js'
import { runOverSsh, shellQuote } from './ssh-command.js'

/** An install that builds the native engine and better-sqlite3 from source takes minutes; longer than this, something is wrong. */
const INSTALL_TIMEOUT_MS = 30 * 60_000

/**
 * @param {import('./ssh-url.js').SshTarget} target
 * @param {{ onLine: (line: string) => void }} hooks onLine: what the host's install prints, and dyno's own steps
 * @returns {Promise<{ commit: string, dir: string, lacks: string[] }>} lacks: what the host cannot do, and why
 */
export async function prepareHost (target, { onLine }) {
  const commit = localCommit()
  if (!commit) {
    throw new DynoError(
      'DYNO_ERR_HOST_NOT_PREPARED',
      `this checkout (${REPO_ROOT}) is not a git checkout with a commit: dyno puts a commit on a host`
    )
  }
  const node = await runOverSsh(target, ['node', '--version'], { cwd: null })
  if (node.code !== 0) {
    throw new DynoError('DYNO_ERR_HOST_UNREACHABLE', `${target.url} has no \`node\` on the PATH of a non-interactive login ` +
      `(${node.stderr.trim() || `exit code ${node.code}`}); install Node.js 20.19 or later there`)
  }
  const pnpm = await runOverSsh(target, ['pnpm', '--version'], { cwd: null })
  if (pnpm.code !== 0) {
    throw new DynoError(
      'DYNO_ERR_HOST_UNREACHABLE',
      `${target.url} has no \`pnpm\` on the PATH of a non-interactive login; install it there ` + '(`npm install --global pnpm@10`)'
    )
  }
  onLine(`${target.url}: Node ${node.stdout.trim()}, pnpm ${pnpm.stdout.trim()}; copying commit ${commit.slice(0, 12)} into ${target.dir}`)
  const archive = spawn('git', ['archive', '--format=tar', commit], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const unpack = await runOverSsh(target, ['sh', '-c', `mkdir -p ${shellQuote(target.dir)} && tar -x -m -f - -C ${shellQuote(target.dir)}`],
    { cwd: null, input: /** @type {import('node:stream').Readable} */ (archive.stdout), timeoutMs: 10 * 60_000 })
  if (unpack.code !== 0) {
    throw new DynoError('DYNO_ERR_HOST_NOT_PREPARED', `could not unpack dyno into ${target.url}:${target.dir}: ${unpack.stderr.trim()}`)
  }
  onLine(`${target.url}: pnpm install --frozen-lockfile in ${target.dir}`)
  const install = await runOverSsh(target, ['pnpm', 'install', '--frozen-lockfile', '--prefer-offline', '--reporter=append-only'],
    { timeoutMs: INSTALL_TIMEOUT_MS, onLine: (line) => onLine(`  ${line}`) })
  if (install.code !== 0) {
    const tail = `${install.stdout}\n${install.stderr}`.trim().split('\n').slice(-15).join('\n')
    throw new DynoError(
      'DYNO_ERR_HOST_NOT_PREPARED',
      `\`pnpm install\` failed on ${target.url} (exit code ${install.code}); its last lines:\n${tail}`
    )
  }
  /** @type {import('../remote/checkout-stamp.js').CheckoutStamp} */
  const stamp = {
    commit,
    lockfileSha256: /** @type {string} */ (lockfileHash(REPO_ROOT)),
    preparedAt: new Date().toISOString(),
    preparedFrom: hostname()
  }
  const written = await runOverSsh(target, ['sh', '-c', `cat > ${CHECKOUT_STAMP_FILE}`], {
    input: Readable.from([JSON.stringify(stamp, null, 2)])
  })
  if (written.code !== 0) {
    throw new DynoError('DYNO_ERR_HOST_NOT_PREPARED', `could not write ${CHECKOUT_STAMP_FILE} on ${target.url}: ${written.stderr.trim()}`)
  }
  const facts = await hostFacts(target)
  checkSameCheckout(target, facts)
  return { commit, dir: facts.checkout.dir, lacks: lacking(facts.executables) }
}

/** @param {Record<string, string | null>} executables @returns {string[]} */
function lacking (executables) {
  const lacks = []
  if (!executables.taskset) lacks.push('taskset (util-linux): the SUT cannot be pinned there')
  if (!executables['redis-server']) lacks.push('redis-server: the redis scenario is skipped there')
  if (!executables.valgrind) lacks.push('valgrind: no instruction counts there')
  if (!executables.cargo || !executables.cc) lacks.push('a C compiler and cargo: no native load engine there')
  return lacks
}
