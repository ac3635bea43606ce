// @ts-check
// A run measures subjects: a SUT on one runtime with one worker setting. Node-compatible SUTs run on
// every runtime the run names (the runtime matrix); Bun-, Deno-, Go- and Python-only SUTs run on their
// own. Building, finding runtimes and refusing what cannot run correctly all happen here, once, before
// the first measurement; what cannot run becomes a skip (or a build failure) with its reason.
import { availableParallelism } from 'node:os'
import { resolveRuntimeTarget } from '../runtimes/runtime-targets.js'
import { mapLimit } from '../../platform/util/map-limit.js'
import { buildSut } from './build-sut.js'

/**
 * @typedef {import('./discover-suts.js').SutDescriptor & { buildFailure?: string | null }} Subject
 */

/**
 * @param {import('./discover-suts.js').SutDescriptor[]} suts
 * @param {{ runtimes: string[], workers: number, onBuildLine?: (sut: string, line: string) => void, signal?: AbortSignal, build?: boolean
 *   }} options runtimes and workers: as `--runtime` and `--workers` say; build false: the subjects as planned, nothing built (`--plan`)
 * @returns {Promise<Subject[]>}
 */
export async function resolveSubjects (suts, { runtimes, workers, onBuildLine = () => {}, signal, build = true }) {
  const sideBySide = runtimes.length > 1
  // Builds (or their up-to-date checks: a Go toolchain, a virtual environment) of different SUTs are independent: one per cpu at once.
  const builds = await mapLimit(suts, availableParallelism(), (sut) =>
    sut.skipReason || sut.installFailure || !build
      ? Promise.resolve(null)
      : buildSut(sut, { onLine: (line) => onBuildLine(sut.name, line), signal })
  )
  /** @type {Subject[]} */
  const subjects = []
  for (const [index, sut] of suts.entries()) {
    const build = builds[index]
    const base = {
      ...sut,
      workers,
      frameworkVersion: build?.frameworkVersion ?? sut.frameworkVersion,
      skipReason: sut.skipReason ?? (build?.state === 'skipped' ? build.reason : null) ?? workersProblem(sut, workers),
      buildFailure: sut.installFailure ?? (build?.state === 'failed' ? build.reason : null)
    }
    if (sut.runtimeKind === 'node') {
      for (const name of runtimes) subjects.push(onJsRuntime(base, name, sideBySide))
    } else if (sut.runtimeKind === 'bun' || sut.runtimeKind === 'deno') {
      subjects.push(onJsRuntime(base, sut.runtimeKind, false))
    } else {
      const [command, ...args] = /** @type {string[]} */ (sut.command)
      subjects.push({
        ...base,
        runtime: { name: sut.runtimeKind, kind: sut.runtimeKind, version: build?.runtimeVersion ?? null },
        launch: { command, args, eventLoopProbe: false }
      })
    }
  }
  return subjects
}

/**
 * @param {Subject} sut
 * @param {string} runtimeName
 * @param {boolean} sideBySide whether the label names the runtime
 * @returns {Subject}
 */
function onJsRuntime (sut, runtimeName, sideBySide) {
  const name = sut.variant?.label ?? sut.name
  const label = sideBySide ? `${name} (${runtimeName})` : name
  const { target, problem } = resolveRuntimeTarget(runtimeName)
  const declared = sut.unsupportedRuntimes[runtimeName] ?? sut.unsupportedRuntimes[runtimeName.split('@')[0]]
  const skipReason = sut.skipReason ??
    (declared ? `${sut.name} cannot run correctly on ${runtimeName}: ${declared}` : null) ??
    (problem ? `runtime ${runtimeName} is not available: ${problem}` : null)
  return {
    ...sut,
    label,
    skipReason,
    unsupportedScenarios: { ...addonLimits(sut, runtimeName, target), ...sut.unsupportedScenarios },
    runtime: { name: runtimeName, kind: target?.kind ?? runtimeName, version: target?.version ?? null },
    launch: target ? { command: target.executable, args: [...target.args, sut.startFile], eventLoopProbe: target.kind === 'node' } : null
  }
}

/**
 * The sqlite scenario's client, better-sqlite3, is a native addon on the V8 ABI, built by `pnpm install`
 * for the Node that ran it: another Node major, Bun or Deno cannot load it, so a Node SUT skips that
 * scenario there (sqlite-async, through the Node-API sqlite3 driver, runs everywhere).
 * @param {Subject} sut
 * @param {string} runtimeName
 * @param {import('../runtimes/runtime-targets.js').RuntimeTarget | null} target
 * @returns {Record<string, string>}
 */
function addonLimits (sut, runtimeName, target) {
  if (sut.runtimeKind !== 'node' || !target) return {}
  const sameAbi = target.kind === 'node' && target.version.replace(/^v/, '').split('.')[0] === process.versions.node.split('.')[0]
  if (sameAbi) return {}
  return {
    sqlite: `better-sqlite3 is a native addon built for Node ${process.versions.node} (ABI ${process.versions.modules}) by pnpm install; ` +
      `${runtimeName} ${target.version} cannot load it`
  }
}

/**
 * @param {import('./discover-suts.js').SutDescriptor} sut
 * @param {number} workers
 */
function workersProblem (sut, workers) {
  if (workers === 1 || sut.supportsWorkers) return null
  return `${sut.name} runs as one server process and has no worker setting; --workers ${workers} applies to SUTs whose package.json says ` +
    'dyno.workers'
}
