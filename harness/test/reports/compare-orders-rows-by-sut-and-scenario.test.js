// @ts-check
// Counts made at once end in any order, and a run's results list them as they ended: a comparison's rows follow the
// SUTs, then the scenarios in the registry's order, then the connections, on both sides alike.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { matchResults } from '../../src/reports/compare/match-results.js'
import { FOUR_REPEATS } from '../support/compare-inputs.js'

const template = JSON.parse(readFileSync(join(FOUR_REPEATS, 'node-http--json--r1.json'), 'utf8'))

/**
 * @param {string} sut @param {string} scenario @param {number} connections
 * @returns {import('../../src/reports/compare/read-inputs.js').SourcedRecord}
 */
function sourced (sut, scenario, connections) {
  const record = structuredClone(template)
  record.sut = { ...record.sut, name: sut, label: sut }
  record.scenario = { ...record.scenario, name: scenario }
  record.load = { ...record.load, connections }
  return { record, file: `${sut}--${scenario}.json` }
}

/** @param {'baseline' | 'candidate'} name @param {import('../../src/reports/compare/read-inputs.js').SourcedRecord[]} records */
const side = (name, records) => /** @type {import('../../src/reports/compare/read-inputs.js').Side} */ ({ name, paths: [name], records })

it('orders rows by SUT, then scenario as the registry lists them, then connections, whatever order the cells ended in', () => {
  const ended = [['koa', 'params', 100], ['fastify', 'json', 100], ['koa', 'plaintext', 100], ['fastify', 'plaintext', 200],
    ['fastify', 'plaintext', 100], ['koa', 'json', 100]]
  const baseline = side(
    'baseline',
    ended.map(([sut, scenario, connections]) => sourced(String(sut), String(scenario), Number(connections)))
  )
  const candidate = side(
    'candidate',
    [...ended].reverse().map(([sut, scenario, connections]) => sourced(String(sut), String(scenario), Number(connections)))
  )
  expect(matchResults(baseline, candidate).map((cell) => `${cell.sut} ${cell.scenario} ${cell.connections}`)).toEqual([
    'fastify plaintext 100', 'fastify plaintext 200', 'fastify json 100', 'koa plaintext 100', 'koa json 100', 'koa params 100'
  ])
})

it('puts a cell only one side has in its place among the others', () => {
  const baseline = side('baseline', [sourced('koa', 'json', 100), sourced('fastify', 'json', 100)])
  const candidate = side('candidate', [sourced('koa', 'json', 100), sourced('express', 'json', 100)])
  const cells = matchResults(baseline, candidate)
  expect(cells.map((cell) => [cell.sut, cell.baseline.length, cell.candidate.length])).toEqual([
    ['express', 0, 1],
    ['fastify', 1, 0],
    ['koa', 1, 1]
  ])
})
