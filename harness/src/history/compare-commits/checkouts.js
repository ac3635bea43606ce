// @ts-check
// What compare-commits checks out, installs and runs for each side: dyno's own commits (each side's SUT packages installed by pnpm and
// run by that side's own harness), or the commits of a service given by --app (its installed dependencies shared where the side pins
// the same ones, else its config's install command; both sides run by this dyno with --app pointing into the side's checkout).
import { existsSync, readFileSync, symlinkSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { runChild } from '../../platform/process/child-command.js'

/** Harness and data packages every worktree of dyno needs besides the selected SUTs. */
const HARNESS_PACKAGES = ['@dyno/harness...']
/** This dyno's command line: a service's two sides are both run by it. */
const THIS_CLI = fileURLToPath(new URL('../../../bin/dyno.js', import.meta.url))
/** The files that pin a service's dependencies, whichever installer wrote them. */
const PIN_FILES = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock']

/**
 * @typedef {'base' | 'head'} Side
 * @typedef {{ signal: AbortSignal, frameworks: string[] | null, onProgress?: (event: { stage: string, side?: Side, line?: string })
 *   => void }} InstallPlan
 * @typedef {object} Checkouts
 * @property {string} repoDir the repository the refs belong to
 * @property {string} what what is compared, for messages (`dyno`, `the service shop`)
 * @property {(dir: string, plan: InstallPlan, side: Side) => Promise<void>} install makes a side's checkout runnable
 * @property {(dir: string) => string} cli the dyno that runs a side's rounds
 * @property {(dir: string) => string[]} runArgs what a side's every `dyno run` is given besides the rounds' options
 */

/** @param {string} [repoDir] @returns {Checkouts} */
export function dynoCheckouts (repoDir = REPO_ROOT) {
  return {
    repoDir,
    what: 'dyno',
    install: (dir, plan, side) => {
      const filters = plan.frameworks
        ? [...HARNESS_PACKAGES, ...plan.frameworks.map((name) => `@dyno/sut-${name}...`)].flatMap((filter) => ['--filter', filter])
        : []
      return runInstall(dir, 'pnpm', ['install', '--frozen-lockfile', '--prefer-offline', ...filters], plan, side)
    },
    cli: (dir) => join(dir, 'harness', 'bin', 'dyno.js'),
    runArgs: () => []
  }
}

/**
 * @param {import('../../subjects/apps/load-app.js').App} app
 * @returns {Checkouts}
 * @throws {DynoError} DYNO_ERR_GIT_REF when the service is not in a git repository
 */
export function appCheckouts (app) {
  let repoDir
  try {
    repoDir = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: app.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
  } catch (error) {
    throw new DynoError('DYNO_ERR_GIT_REF', `the service in ${app.dir} is not in a git repository, so it has no commits to compare`,
      { cause: error })
  }
  const inside = relative(repoDir, app.dir)
  return {
    repoDir,
    what: `the service ${app.name}`,
    install: async (dir, plan, side) => {
      const there = join(dir, inside)
      if (samePins(app.dir, there) && existsSync(join(app.dir, 'node_modules'))) {
        plan.onProgress?.({ stage: `pins the same dependencies as ${app.dir}: its node_modules shared`, side })
        symlinkSync(join(app.dir, 'node_modules'), join(there, 'node_modules'), 'dir')
        return
      }
      if (!app.install) {
        throw new DynoError('DYNO_ERR_COMPARE_INSTALL', `${side} pins other dependencies than ${app.dir} (${PIN_FILES.join(', ')}), ` +
          `and ${app.file} names no \`install\` command to install them with (such as [npm, ci])`)
      }
      const [command, ...args] = app.install
      await runInstall(there, command, args, plan, side)
    },
    cli: () => THIS_CLI,
    runArgs: (dir) => ['--app', join(dir, inside)]
  }
}

/** @param {string} here @param {string} there @returns {boolean} whether both pin the same dependencies, file by file */
function samePins (here, there) {
  return PIN_FILES.every((name) => {
    const [a, b] = [join(here, name), join(there, name)]
    if (existsSync(a) !== existsSync(b)) return false
    return !existsSync(a) || readFileSync(a).equals(readFileSync(b))
  })
}

/**
 * @param {string} dir @param {string} command @param {string[]} args @param {InstallPlan} plan @param {Side} side
 */
async function runInstall (dir, command, args, plan, side) {
  const outcome = await runChild(command, args, {
    cwd: dir,
    signal: plan.signal,
    onLine: (line) => plan.onProgress?.({ stage: 'installing', side, line })
  }).catch((error) => {
    throw new DynoError('DYNO_ERR_COMPARE_INSTALL', `could not start ${command} in ${dir}: ${error.message}`, { cause: error })
  })
  if (plan.signal.aborted) throw new DynoError('DYNO_ERR_INTERRUPTED', 'compare-commits interrupted while installing')
  if (outcome.code !== 0) {
    throw new DynoError(
      'DYNO_ERR_COMPARE_INSTALL',
      `${command} ${args.join(' ')} failed for ${side} (${dir}), exit ${outcome.code ?? outcome.signal}; its last ` +
        `lines:\n${outcome.tail.join('\n')}`
    )
  }
}
