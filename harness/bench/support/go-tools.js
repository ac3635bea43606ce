// @ts-check
// The tools a bench script builds from Go source: fetched from the Go module proxy by `go install` (a module at a pinned version) or
// built by `go build` from a program kept in harness/bench/support/ (its go.mod and go.sum pin what it uses), into
// harness/bench/.tools/ (ignored by git: no binary is ever committed). Built once per version and reused; a bench script that needs
// one and finds no `go` fails naming what to install.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { HARNESS_DIR } from '../../src/platform/paths.js'
import { findExecutable } from '../../src/platform/util/find-executable.js'

/** Where the bench scripts keep the tools they build (in .gitignore). */
export const BENCH_TOOLS_DIR = join(HARNESS_DIR, 'bench', '.tools')

/** @returns {string} the `go` command, or throws naming what to install */
function goCommand () {
  const go = findExecutable('go', ['/usr/local/go/bin'])
  if (!go) {
    throw new Error('this bench builds its tool from Go source, and `go` is not on PATH (nor in /usr/local/go/bin): install Go 1.22 or ' +
      'newer (https://go.dev/dl/, or `apt-get install golang-go`), then run it again')
  }
  return go
}

/**
 * A Go program installed from the module proxy at a pinned version (`go install module@version`), built the first time it is asked for.
 * @param {{ module: string, version: string, binary: string }} tool module: its path with the package that holds `main`
 *   (`github.com/tsenart/vegeta/v12`); binary: the name `go install` gives it
 * @returns {string} the path of the binary
 */
export function goInstalled ({ module, version, binary }) {
  const dir = join(BENCH_TOOLS_DIR, `${binary}@${version}`)
  const path = join(dir, binary)
  if (existsSync(path)) return path
  const go = goCommand()
  mkdirSync(dir, { recursive: true })
  console.log(`building ${module}@${version} from the Go module proxy into ${dir} (once)`)
  const env = { ...process.env, GOBIN: dir, GOFLAGS: '-buildvcs=false' }
  execFileSync(go, ['install', `${module}@${version}`], { env, stdio: 'inherit' })
  if (!existsSync(path)) throw new Error(`\`go install ${module}@${version}\` ended without making ${path}`)
  return path
}

/**
 * A Go program kept in `sourceDir` (its main package, go.mod and go.sum), built into the tools directory whenever its source is newer.
 * @param {{ sourceDir: string, binary: string }} program
 * @returns {string} the path of the binary
 */
export function goBuilt ({ sourceDir, binary }) {
  const go = goCommand()
  mkdirSync(BENCH_TOOLS_DIR, { recursive: true })
  const path = join(BENCH_TOOLS_DIR, binary)
  // `go build` is incremental: it relinks only when the source or its modules changed, so asking every time is cheap.
  const env = { ...process.env, GOFLAGS: '-buildvcs=false' }
  execFileSync(go, ['build', '-trimpath', '-o', path, '.'], { cwd: sourceDir, env, stdio: 'inherit' })
  return path
}
