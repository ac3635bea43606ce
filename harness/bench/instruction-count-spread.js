// @ts-check
// How repeatable is the instruction count of a request, with and without the runtime settings that pin down
// V8's seeds and helper threads? Counts node-http json several times each way (each count two cachegrind
// launches) and prints the counts per request and their spread.
//
//   node harness/bench/instruction-count-spread.js [--repeats 3] [--sut node-http] [--scenario json] [--warmup 2000] [--requests 2000]
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { mean, sampleStandardDeviation } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import { countInstructions, NODE_COUNT_SETTINGS } from '../src/instructions/count-instructions.js'
import { PACKAGES_DIR } from '../src/paths.js'
import { runEnv } from '../src/run/run-env.js'
import { createRunId } from '../src/run/run-id.js'
import { resolveSubjects } from '../src/suts/resolve-subjects.js'
import { loadSut } from '../src/suts/discover-suts.js'
import { DEFAULT_RUNTIME } from '../src/runtimes/runtime-targets.js'

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '3' },
    sut: { type: 'string', default: 'node-http' },
    scenario: { type: 'string', default: 'json' },
    warmup: { type: 'string', default: '2000' },
    requests: { type: 'string', default: '2000' },
    settings: { type: 'string', default: 'with,without' }
  }
})
const scenario = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((candidate) => candidate.name === values.scenario))
const [sut] = await resolveSubjects([loadSut(join(PACKAGES_DIR, String(values.sut)))], { runtimes: [DEFAULT_RUNTIME], workers: 1 })
for (const arm of String(values.settings).split(',')) {
  const perRequest = []
  for (let repeat = 0; repeat < Number(values.repeats); repeat++) {
    const started = performance.now()
    const count = await countInstructions({
      sut,
      scenario,
      env: runEnv(createRunId()),
      warmupRequests: Number(values.warmup),
      requests: Number(values.requests),
      concurrency: 4,
      readyTimeoutSec: 120,
      settings: arm === 'with' ? NODE_COUNT_SETTINGS : { nodeFlags: [], env: {} }
    })
    perRequest.push(count.instructionsPerRequest)
    console.log(`${arm}: ${count.instructionsPerRequest} instructions per request (launches ${count.launches.map((launch) => `${launch.requests} req: ${launch.instructions}`).join(', ')}; ` +
      `checks ${JSON.stringify(count.checks)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  const cv = perRequest.length > 1 ? sampleStandardDeviation(perRequest) / mean(perRequest) : 0
  console.log(`${arm}: mean ${Math.round(mean(perRequest))}, CV ${(cv * 100).toFixed(2)}% over ${perRequest.length}`)
}
