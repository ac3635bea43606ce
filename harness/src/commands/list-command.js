// @ts-check
import { SCENARIOS } from '@dyno/scenarios'
import { discoverSuts } from '../suts/discover-suts.js'
import { createTable } from '../ui/table.js'

/** @returns {string} the SUTs with their installed framework versions, then the scenarios */
export function formatList () {
  const suts = createTable(['SUT', 'framework', 'installed version', 'validator', 'note'])
  for (const sut of discoverSuts()) {
    suts.push([sut.name, sut.framework, sut.frameworkVersion ?? 'not installed (run pnpm install)', sut.validator, sut.skipReason ? `skipped: ${sut.skipReason}` : Object.keys(sut.unsupportedScenarios).map((name) => `cannot serve ${name}`).join(', ')])
  }
  const scenarios = createTable(['scenario', 'request', 'expected', 'summary'])
  for (const scenario of SCENARIOS) {
    scenarios.push([scenario.name, `${scenario.request.method} ${scenario.request.path}`, `${scenario.expect.status}${scenario.expect.contentType ? ` ${scenario.expect.contentType}` : ''}`, scenario.summary])
  }
  return `SUTs\n${suts.toString()}\n\nScenarios\n${scenarios.toString()}`
}
