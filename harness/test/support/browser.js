// @ts-check
// Debian's chromium driven by playwright-core: the browser the HTML report is tested in. No
// downloaded browser; .ci/run installs chromium with apt.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'

/** Where Debian's package puts the browser. */
export const CHROMIUM_PATH = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path)) ?? null

const LAUNCH_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run']

/**
 * A headless chromium on a fresh user-data directory, removed on close.
 * @returns {Promise<{ context: import('playwright-core').BrowserContext, close: () => Promise<void> }>}
 */
export async function launchChromium () {
  if (!CHROMIUM_PATH) throw new Error('chromium is not installed: apt-get install -y chromium')
  const userDataDir = mkdtempSync(join(tmpdir(), 'dyno-chromium-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: LAUNCH_FLAGS,
    viewport: { width: 1400, height: 1000 }
  })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(userDataDir, { recursive: true, force: true })
    }
  }
}

/**
 * What goes wrong on a page that must work offline from file://: console errors, page errors, and any request that leaves the disk.
 * @param {import('playwright-core').Page} page
 * @returns {string[]} filled as the page runs
 */
export function pageProblems (page) {
  /** @type {string[]} */
  const problems = []
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console error: ${message.text()}`) })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('request', (request) => { if (!request.url().startsWith('file:')) problems.push(`network request: ${request.url()}`) })
  return problems
}
