// @ts-check
// The checks of the native load engine, this package's `test` script (so `pnpm test` runs them through turbo): the
// Rust code as rustfmt formats it, clippy with every warning an error, then the unit tests, in that order, each
// streaming its output; the first that fails fails the whole. clippy and the tests use the debug profile: the release
// build of `pnpm install` (panic = abort, thin LTO) cannot be shared with them anyway, and after an edit a debug check
// takes seconds where a release one takes half a minute.
// Without cargo: under CI=true a failure, otherwise one line saying the checks were skipped, and exit code 0.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { findCargo, RUST } from './cargo.js'

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))
/** Each check: cargo's arguments, and the rustup component its subcommand comes from (cargo itself: none). */
const CHECKS = [
  { args: ['fmt', '--check'], component: 'rustfmt' },
  { args: ['clippy', '--locked', '--all-targets', '--', '-D', 'warnings'], component: 'clippy' },
  { args: ['test', '--locked'], component: null }
]
/** @param {string} line */
const say = (line) => process.stderr.write(`engine-native: ${line}\n`)

const cargo = findCargo()
if (!cargo) {
  if (process.env.CI === 'true') {
    say(`check failed: cargo is not installed, and under CI=true the Rust checks must run: install ${RUST}`)
    process.exitCode = 1
  } else {
    say(`check skipped: cargo is not installed; install ${RUST} to run cargo fmt, clippy and test`)
  }
} else {
  process.exitCode = runChecks(cargo) ? 0 : 1
}

/** @param {string} cargo @returns {boolean} whether every check passed */
function runChecks (cargo) {
  const started = Date.now()
  for (const { args, component } of CHECKS) {
    const command = `cargo ${args.join(' ')}`
    // A cargo without rustfmt or clippy (a distribution's cargo package) would only say "no such command".
    if (component && spawnSync(cargo, [args[0], '--version'], { cwd: PACKAGE_DIR, stdio: 'ignore' }).status !== 0) {
      say(`\`${command}\` cannot run: cargo ${args[0]} is not installed (\`rustup component add ${component}\`, ` +
        `or your distribution's ${component === 'clippy' ? 'rust-clippy' : 'rustfmt'} package)`)
      return false
    }
    say(`${command}`)
    const stepStarted = Date.now()
    const run = spawnSync(cargo, args, { cwd: PACKAGE_DIR, stdio: ['ignore', 'inherit', 'inherit'] })
    if (run.error || run.status !== 0) {
      const why = run.error?.message ?? (run.signal ? `killed by ${run.signal}` : `exit code ${run.status}`)
      say(`\`${command}\` failed (${why})${args[0] === 'fmt' ? '; `cargo fmt` in engines/native formats the code' : ''}`)
      return false
    }
    say(`\`${command}\` passed in ${seconds(stepStarted)}`)
  }
  say(`cargo fmt, clippy and test passed in ${seconds(started)}`)
  return true
}

/** @param {number} since a Date.now() @returns {string} the seconds since, for the log */
function seconds (since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`
}
