// @ts-check
// `dyno run --plan`: the plan as JSON on stdout, nothing built, started or measured.
import { resolve } from 'node:path'
import { measureNamed } from '../../measures/index.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { subjectCatalogue } from '../../subjects/suts/subject-catalogue.js'
import { resolveSubjects } from '../../subjects/suts/resolve-subjects.js'
import { selectScenarios } from '../../subjects/suts/select.js'
import { plannedEntry, planParts, planRecord } from '../../suite/plan/plan-parts.js'
import { planOptionsOf } from '../../suite/plan/split-plan.js'

/**
 * @param {import('../../suite/prepare-run.js').RunValues} options @param {import('../cli/io.js').Io} io @param {Set<string>} planFields
 * @returns {Promise<number>}
 */
export async function printPlan (options, io, planFields) {
  const catalogue = subjectCatalogue(options.app)
  const selected = await catalogue.variants.select(options.frameworks, {
    cacheDir: resolve(REPO_ROOT, options.cacheDir),
    install: false
  })
  const suts = await resolveSubjects(selected, { runtimes: options.runtimes, workers: options.workers, build: false })
  const plan = planParts({
    suts,
    scenarios: selectScenarios(catalogue.scenarios, options.scenarios),
    connections: options.connections,
    repeats: options.repeats,
    seed: options.seed,
    planOptions: planOptionsOf(options, planFields),
    shard: options.shard,
    settings: options,
    measure: measureNamed(options.measure)
  })
  const parts = plan.parts.map((part, index) => ({
    shard: `${index + 1}/${plan.parts.length}`,
    cells: part.units.length,
    expectedSec: part.expectedSec,
    planned: part.units.map(plannedEntry)
  }))
  io.stdout.write(JSON.stringify({ ...planRecord(plan, options.shard), parts }, null, 2) + '\n')
  return 0
}
