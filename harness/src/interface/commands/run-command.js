// @ts-check
import { runOrPlan } from '../runs/run-benchmarks.js'
import { RUN_OPTIONS } from '../cli/option-table.js'

/** @type {import('../cli/command.js').Command} */
export const RUN_COMMAND = {
  name: 'run',
  args: [],
  summary: 'Benchmark the selected SUTs on the selected scenarios and write one result file per run',
  options: RUN_OPTIONS,
  run: ({ options }, io, signal) => runOrPlan(/** @type {import('../../suite/prepare-run.js').RunValues} */ ({
    ...options.values,
    sizeRepeats: !['repeats', 'durationSec', 'warmupSec', 'launchWarmupSec'].some((field) => options.given.has(field))
  }), io, signal, options.planFields)
}
