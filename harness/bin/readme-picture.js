#!/usr/bin/env node
// @ts-check
// Draws the README's picture: the overview of a run (default: the newest under results/) as report.html shows it, its table and heat
// map, rendered in Debian's chromium (playwright-core, no downloaded browser) and saved as docs/images/overview.png. Run it with
// `pnpm readme:reference` on the same run, so that the picture and the table above and below it show one run.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { DEFAULTS } from '../src/platform/defaults.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { htmlReport } from '../src/reports/report/html-report.js'
import { latestRunDir, readRun } from '../src/records/read-run.js'

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))
const [dirArgument, pictureArgument] = process.argv.slice(2)
const runDir = dirArgument ? resolve(dirArgument) : latestRunDir(resolve(REPO_ROOT, DEFAULTS.out))
const picture = pictureArgument ? resolve(pictureArgument) : join(REPO_ROOT, 'docs', 'images', 'overview.png')
const scratch = mkdtempSync(join(tmpdir(), 'dyno-picture-'))
try {
  if (!CHROMIUM) throw new Error('chromium is not installed: apt-get install -y chromium')
  const page = join(scratch, 'report.html')
  writeFileSync(page, htmlReport([readRun(runDir)]))
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })
    await tab.goto(pathToFileURL(page).href)
    await tab.waitForFunction(() => /** @type {any} */ (globalThis).dynoOverviewsDrawn !== undefined, null, { timeout: 20_000 })
    const overview = await tab.$('#overview-0')
    if (!overview) throw new Error(`${runDir} has no overview to draw`)
    mkdirSync(dirname(picture), { recursive: true })
    await overview.screenshot({ path: picture })
  } finally {
    await browser.close()
  }
  process.stdout.write(`${picture}: the overview of ${runDir}\n`)
} catch (error) {
  process.stderr.write(`${/** @type {Error} */ (error).message}\n`)
  process.exitCode = 2
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
