// @ts-check
// A `dyno run` of a fixture SUT (which `pnpm bench` cannot name) under dyno's own interrupt handling: the test
// signals this process as a terminal or a parent would, and it exits as dyno does when interrupted. It prints
// the directory its run goes into first, then a line per stage and result, and `interrupted <signal>` when it takes one.
// Usage: node interruptible-suite.js <fixture name> <scenario,…> <durationSec>
import { dirname } from 'node:path'
import { interruptedExitCode, onInterrupt } from '../../src/interface/cli/interrupt.js'
import { fixtureSut } from './fixture-suts.js'
import { runInTempDir } from './run-fixture.js'

const [fixture, scenarios, durationSec] = process.argv.slice(2)
const interrupted = await onInterrupt(async (signal) => {
  // Said when the interruption is taken, so that a test sends a second signal later than that, by this process's clock too.
  signal.addEventListener('abort', () => process.stderr.write(`interrupted ${signal.reason}\n`), { once: true })
  await runInTempDir({
    runs: { add: (runId) => runId },
    suts: [fixtureSut(/** @type {any} */ (fixture))],
    scenarios: scenarios.split(','),
    load: { durationSec: Number(durationSec) },
    signal,
    hooks: {
      onStart: ({ runDir }) => process.stderr.write(`out ${dirname(runDir)}\n`),
      onProgress: ({ index, stage, phase }) => process.stderr.write(`run ${index + 1} ${stage}${phase ? ` ${phase}` : ''}\n`),
      onResult: (record) => process.stderr.write(`result ${record.status}\n`)
    }
  })
  return signal.aborted ? signal : null
})
process.exitCode = interrupted ? interruptedExitCode(interrupted) : 0
