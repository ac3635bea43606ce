// @ts-check
// A vitest setup file: a test or hook that runs out of time gets, after vitest's "timed out in N ms", what it was waiting for then
// (waiting-for.js): the dyno command and its last line, the run and its cells written, or the line that never appeared.
import { beforeEach, onTestFailed } from 'vitest'
import { openWaits } from './waiting-for.js'

beforeEach(() => {
  onTestFailed(({ task }) => {
    const waits = openWaits()
    for (const error of task.result?.errors ?? []) {
      if (!/timed out/i.test(error.message ?? '')) continue
      error.message = waits.length > 0
        ? `${error.message}\nIt was waiting for:\n${waits.map((wait) => `  - ${wait}`).join('\n')}`
        : `${error.message}\nIt was waiting for nothing a helper of test/support knows of (an await of its own).`
    }
  })
})
