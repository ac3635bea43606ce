// @ts-check
// A scenario may be a weighted mix of requests (`mix`) instead of one: dyno lays them out once, each in proportion to its weight and
// spread evenly through every cycle of the weights, and every sender sends that list in turn, each request with its own method,
// headers and body, all judged by the scenario's one expectation. Verification checks the first requests and the first of each the
// mix holds. A scenario with both `request` and `mix`, or a bad weight, is a config error naming where.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { mixedRequests } from '../../../src/subjects/apps/request-mix.js'
import { DRAWN_REQUESTS } from '../../../src/subjects/apps/request-params.js'
import { shortRun } from '../../support/dyno-run.js'
import { schemaErrors } from '../../support/result-schemas.js'
import { runCli } from '../../support/run-cli.js'
import { writtenRun } from '../../support/written-run.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/shop-service', import.meta.url))

/** Three item reads to one order, as the config below says. */
const MIX_LINES = [
  '    mix:',
  '      - weight: 3',
  "        request: { path: '/items/{id}', params: { id: { integer: { min: 1, max: 999 } } } }",
  '      - weight: 1',
  "        request: { method: POST, path: /orders, headers: { content-type: application/json }, body: '{\"item\":7}' }"
]

/**
 * @param {string[]} [scenario] the scenario's request lines in the config (default: MIX_LINES)
 * @returns {{ dir: string, served: string }} a copy of the shop, and the file it writes its answers per route to as it stops
 */
function shop (scenario = MIX_LINES) {
  const root = mkdtempSync(join(tmpdir(), 'dyno-shop-'))
  const dir = join(root, 'service')
  const served = join(root, 'served.json')
  cpSync(FIXTURE, dir, { recursive: true })
  writeFileSync(join(dir, 'dyno.config.yaml'), [
    'name: shop',
    `start: { file: server.js, env: { SERVED_FILE: '${served}' }, ready: { path: /health, status: 200 } }`,
    'scenarios:',
    '  - name: browse',
    ...scenario,
    '    expect: { status: 200, contentType: application/json, body: { schema: { type: object, required: [kind] } } }'
  ].join('\n'))
  return { dir, served }
}

/** @param {string} file @returns {{ item: number, order: number, refused: number }} */
const answered = (file) => existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { item: 0, order: 0, refused: 0 }

const ENTRIES = [
  {
    weight: 3,
    template: { method: /** @type {const} */ ('GET'), path: '/items/{id}', headers: {}, body: null },
    params: { id: { integer: { min: 1, max: 999 } } }
  },
  { weight: 1, template: { method: /** @type {const} */ ('POST'), path: '/orders', headers: {}, body: '{"item":7}' } }
]

describe('a weighted mix of requests', () => {
  it('is laid out once, each request as often as its weight in every cycle, evenly spread', () => {
    const list = mixedRequests(ENTRIES, { seed: 'browse', file: 'f', where: '/scenarios/0/mix' })
    expect(list.length).toBeGreaterThanOrEqual(DRAWN_REQUESTS)
    expect(list.length % 4).toBe(0)
    for (let cycle = 0; cycle < list.length; cycle += 4) {
      expect(list.slice(cycle, cycle + 4).map((drawn) => drawn.entry)).toEqual([0, 0, 1, 0])
    }
    const items = list.filter((drawn) => drawn.entry === 0)
    expect(items.every((drawn) => drawn.method === 'GET' && /^\/items\/\d+$/.test(drawn.path) && drawn.body === null)).toBe(true)
    expect(new Set(items.map((drawn) => drawn.path)).size).toBeGreaterThan(items.length / 2)
    expect(list.filter((drawn) => drawn.entry === 1).every((drawn) => drawn.method === 'POST' && drawn.body === '{"item":7}'))
      .toBe(true)
    expect(mixedRequests(ENTRIES, { seed: 'browse', file: 'f', where: 'w' })).toEqual(list)
    const uneven = mixedRequests([{ ...ENTRIES[0], weight: 7 }, { ...ENTRIES[1], weight: 3 }], { seed: 's', file: 'f', where: 'w' })
    expect(uneven.length % 10).toBe(0)
    expect(uneven.filter((drawn) => drawn.entry === 1).length * 10).toBe(uneven.length * 3)
  })

  // Nine reads to an order: the first three requests are reads, so the first order is verified besides them. Verification sends each
  // request twice, the second time on the same connection.
  it('is verified with its first requests and the first of each request it holds', async () => {
    const { dir, served } = shop(MIX_LINES.map((line) => line.replace('weight: 3', 'weight: 9')))
    const result = await runCli(['verify', '--app', dir], { timeoutMs: 30_000 })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(answered(served)).toEqual({ item: 6, order: 2, refused: 0 })
  })

  it('is a config error beside a request, with one request, or with a weight outside 1 to 100', async () => {
    const { dir } = shop([
      "    request: { path: '/items/1' }",
      ...MIX_LINES.slice(0, 2),
      '      - weight: 0',
      "        request: { path: '/items/2' }"
    ])
    const result = await runCli(['verify', '--app', dir], { timeoutMs: 30_000 })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('/scenarios/0: give either `request` or `mix` (weighted requests), not both or neither')
    expect(result.stderr).toContain("/scenarios/0/mix/0: must have required property 'request'")
    expect(result.stderr).toContain('/scenarios/0/mix/1/weight: must be >= 1')
    const alone = shop(['    mix:', '      - weight: 3', "        request: { path: '/items/1' }"])
    const single = await runCli(['verify', '--app', alone.dir], { timeoutMs: 30_000 })
    expect(single.stderr).toContain('/scenarios/0/mix: must NOT have fewer than 2 items')
  })

  // Each connection sends the list from its own share on, so the answers hold the weights to within a request or so a connection;
  // the schedule's sends are counted, and hold them to within one request a worker.
  it.each([
    ['autocannon', { engine: 'autocannon' }],
    ['autocannon at a fixed rate', { engine: 'autocannon', ratePerSec: 400 }],
    ['wrk', { engine: 'wrk' }],
    ['native, pipelined', { engine: 'native', pipelining: 4 }]
  ])('is sent in proportion under load (%s), each request with its own method, headers and body', async (_, fields) => {
    const { dir, served } = shop()
    const out = mkdtempSync(join(tmpdir(), 'dyno-shop-out-'))
    const result = await runCli(shortRun({ app: dir, durationSec: 1, launchWarmupSec: 0, out, ...fields }, ['--quiet-check', 'off']),
      { timeoutMs: 60_000 })
    const runDir = /results: (.+)/.exec(result.stdout)?.[1] ?? ''
    const [record] = writtenRun(runDir).records
    expect(record.status, result.stdout + result.stderr).toBe('ok')
    expect(record.scenario.mix).toEqual([{ weight: 3, method: 'GET', path: '/items/{id}' }, { weight: 1, method: 'POST', path: '/orders' }])
    expect(schemaErrors('result', record)).toEqual([])
    const { item, order, refused } = answered(served)
    expect(refused).toBe(0)
    expect(item + order).toBeGreaterThan(200)
    expect(item / (item + order)).toBeGreaterThan(0.7)
    expect(item / (item + order)).toBeLessThan(0.8)
  })
})
