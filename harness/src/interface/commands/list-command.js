// @ts-check
import { SCENARIOS } from '@dyno/scenarios'
import { RUNTIME_NAMES, resolveRuntimeTarget } from '../../subjects/runtimes/runtime-targets.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { createTable } from '../../platform/text/table.js'

/** @param {import('../../subjects/suts/discover-suts.js').SutDescriptor} sut */
function sutNote (sut) {
  if (sut.skipReason) return `skipped: ${sut.skipReason}`
  return [
    ...Object.keys(sut.unsupportedScenarios).map((name) => `cannot serve ${name}`),
    ...Object.keys(sut.unsupportedRuntimes).map((name) => `not on ${name}`)
  ].join(', ')
}

/** @returns {string} the SUTs with their installed framework versions, the runtimes, then the scenarios */
export function formatList () {
  const suts = createTable(['SUT', 'runs on', 'framework', 'installed version', 'validator', 'note'])
  for (const sut of discoverSuts()) {
    const notInstalled = sut.buildScript ? 'not built (run pnpm install)' : 'not installed (run pnpm install)'
    suts.push([
      sut.name, sut.runtimeKind === 'node' ? 'node, --runtime' : sut.runtimeKind, sut.framework,
      sut.frameworkVersion ?? notInstalled, sut.validator, sutNote(sut)
    ])
  }
  const runtimes = createTable(['runtime', 'version', 'executable'])
  for (const name of RUNTIME_NAMES) {
    const { target, problem } = resolveRuntimeTarget(name)
    runtimes.push([name, target?.version ?? 'not available', target ? [target.executable, ...target.args].join(' ') : problem ?? ''])
  }
  const scenarios = createTable(['scenario', 'request', 'expected', 'summary'])
  for (const scenario of SCENARIOS) {
    scenarios.push([
      scenario.name,
      `${scenario.request.method} ${scenario.request.path}`,
      `${scenario.expect.status}${scenario.expect.contentType ? ` ${scenario.expect.contentType}` : ''}`,
      scenario.summary
    ])
  }
  return `SUTs\n${suts.toString()}\n\nRuntimes (--runtime)\n${runtimes.toString()}\n\nScenarios\n${scenarios.toString()}`
}

/** @type {import('../cli/command.js').Command} */
export const LIST_COMMAND = {
  name: 'list',
  args: [],
  summary: 'List the SUTs (with installed framework versions and validators), the runtimes and the scenarios',
  options: [],
  run: async (input, io) => {
    io.stdout.write(formatList() + '\n')
    return 0
  }
}
