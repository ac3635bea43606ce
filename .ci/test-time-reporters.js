// @ts-check
// The vitest reporters of every package's config: the default one, and, when DYNO_TEST_TIMES_DIR is set (`.ci/run` sets it), one that
// appends each test file's time to a file in that directory as the file ends (so a run cut short keeps what it timed), which
// `.ci/slowest-test-files.js` reads at the end. A file's time is vitest's own for it: importing it, its hooks and its tests.
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * @param {string} suite names the file of times: the package, e.g. `harness`
 * @returns {any[]} vitest's `test.reporters`
 */
export function testReporters (suite) {
  const dir = process.env.DYNO_TEST_TIMES_DIR
  if (!dir) return ['default']
  const file = join(dir, `${suite}-${process.pid}.jsonl`)
  return ['default', {
    /** @param {any} testModule vitest's TestModule */
    onTestModuleEnd (testModule) {
      const { collectDuration, setupDuration, duration } = testModule.diagnostic()
      const line = {
        file: testModule.moduleId,
        project: testModule.project.name,
        sec: (collectDuration + setupDuration + duration) / 1000,
        state: testModule.state()
      }
      appendFileSync(file, `${JSON.stringify(line)}\n`)
    }
  }]
}
