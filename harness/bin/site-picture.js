#!/usr/bin/env node
// @ts-check
// Draws the README's picture of the time machine: one framework's page of the site `pnpm site` writes from the repository's dataset
// (data/timeline), its first scenario's charts and steps as Chromium shows them (Debian's chromium through playwright-core, no
// downloaded browser), saved as docs/images/timeline-<framework>.png.
//
//   node harness/bin/site-picture.js [DATA_DIR] [FRAMEWORK] [PICTURE]    (defaults: data/timeline, express)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { pageOf } from '../src/history/site/site-model.js'
import { REPO_ROOT } from '../src/platform/paths.js'

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))
const [dataArgument = 'data/timeline', framework = 'express', pictureArgument] = process.argv.slice(2)
const dataDir = resolve(REPO_ROOT, dataArgument)
const picture = pictureArgument ? resolve(pictureArgument) : join(REPO_ROOT, 'docs', 'images', `timeline-${framework}.png`)
const scratch = mkdtempSync(join(tmpdir(), 'dyno-site-picture-'))
try {
  if (!CHROMIUM) throw new Error('chromium is not installed: apt-get install -y chromium')
  const site = join(scratch, 'site')
  const made = spawnSync(process.execPath, [join(REPO_ROOT, 'harness', 'bin', 'dyno.js'), 'site', dataDir, '--out', site], {
    encoding: 'utf8'
  })
  if (made.status !== 0) throw new Error(`dyno site ${dataDir} failed:\n${made.stderr}`)
  const page = join(site, pageOf('framework', framework))
  if (!existsSync(page)) throw new Error(`${dataDir} has no page for ${framework}`)
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })
    await tab.goto(pathToFileURL(page).href)
    await tab.waitForFunction(() => globalThis.document.documentElement.dataset.chartsDrawn !== undefined, null, { timeout: 20_000 })
    const section = await tab.$('main section')
    if (!section) throw new Error(`the page of ${framework} has no scenario to draw`)
    mkdirSync(dirname(picture), { recursive: true })
    await section.screenshot({ path: picture })
  } finally {
    await browser.close()
  }
  process.stdout.write(`${picture}: the first scenario of ${framework}'s page, from ${dataDir}\n`)
} catch (error) {
  process.stderr.write(`${/** @type {Error} */ (error).message}\n`)
  process.exitCode = 2
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
