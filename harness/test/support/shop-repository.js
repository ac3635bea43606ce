// @ts-check
// The example shop (examples/shop-service) as a git repository of its own in two commits, as a service's repository would hold it:
// the first the shop as it is, the second what the test changes. The shop's installed node_modules are linked in, never committed.
import { cpSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from '../../src/platform/paths.js'

const SHOP = join(REPO_ROOT, 'examples', 'shop-service')

/**
 * @param {{ repo: string, serviceDir?: string, change: (service: string) => void, message: string }} request serviceDir: where in the
 *   repository the shop lies ('' for its root); change: edits the shop's files in place for the second commit
 * @returns {string} the repository
 */
export function shopRepository ({ repo, serviceDir = '', change, message }) {
  const service = join(repo, serviceDir)
  for (const entry of ['src', 'dyno.config.yaml', 'basket.json', 'package.json']) {
    cpSync(join(SHOP, entry), join(service, entry), { recursive: true })
  }
  symlinkSync(join(SHOP, 'node_modules'), join(service, 'node_modules'), 'dir')
  writeFileSync(join(repo, '.gitignore'), 'node_modules\n')
  const git = (/** @type {string[]} */ args) => execFileSync('git', ['-c', 'user.name=dyno', '-c', 'user.email=dyno@example.com', ...args],
    { cwd: repo, stdio: 'pipe' })
  git(['init', '-q'])
  git(['add', '-A'])
  git(['commit', '-qm', 'the shop'])
  change(service)
  git(['add', '-A'])
  git(['commit', '-qm', message])
  return repo
}
