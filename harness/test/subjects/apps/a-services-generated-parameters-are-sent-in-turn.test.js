// @ts-check
// A request's path, header values and body may hold generated parameters (`request.params`): dyno draws its requests once, from the
// scenario's name, the same value wherever a name stands in one request, and every sender sends them in turn, so verification checks
// the first ones, load reaches all of them, and a count sends the same ones on every commit. A parameter the request lacks, or a
// placeholder without one, is a config error.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DRAWN_REQUESTS, drawnRequests } from '../../../src/subjects/apps/request-params.js'
import { shortRun } from '../../support/dyno-run.js'
import { runCli } from '../../support/run-cli.js'
import { writtenRun } from '../../support/written-run.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/catalogue-service', import.meta.url))
const TEMPLATE = {
  method: /** @type {const} */ ('POST'), path: '/items/{id}?view={view}', headers: { 'x-tenant': 't-{tenant}' }, body: '{"id":{id}}'
}
const PARAMS = { id: { integer: { min: 1, max: 100000 } }, view: { oneOf: ['short', 'full'] }, tenant: { oneOf: ['north', 'south'] } }

/**
 * @param {string[]} [request] the request's lines in the config (default: TEMPLATE with PARAMS)
 * @returns {{ dir: string, served: string }} a copy of the service, and the file it writes the paths it served to as it stops
 */
function catalogue (request = [
  '      method: POST',
  `      path: '${TEMPLATE.path}'`,
  "      headers: { x-tenant: 't-{tenant}' }",
  `      body: '${TEMPLATE.body}'`,
  '      params:',
  '        id: { integer: { min: 1, max: 100000 } }',
  '        view: { oneOf: [short, full] }',
  '        tenant: { oneOf: [north, south] }'
]) {
  const root = mkdtempSync(join(tmpdir(), 'dyno-catalogue-'))
  const dir = join(root, 'service')
  const served = join(root, 'served.txt')
  cpSync(FIXTURE, dir, { recursive: true })
  writeFileSync(join(dir, 'dyno.config.yaml'), [
    'name: catalogue',
    `start: { file: server.js, env: { SERVED_FILE: '${served}' }, ready: { path: /health, status: 200 } }`,
    'scenarios:',
    '  - name: item',
    '    request:',
    ...request,
    '    expect: { status: 200, contentType: application/json, body: { schema: { type: object, required: [id, name] } } }'
  ].join('\n'))
  return { dir, served }
}

/** @param {string} file @returns {Set<string>} each request the service served: its path, x-tenant header and body */
const servedRequests = (file) => new Set(existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [])

const DRAWN = drawnRequests(TEMPLATE, PARAMS, { seed: 'item', file: 'dyno.config.yaml', where: '/scenarios/0/request' })
/** The drawn requests as the service writes down what it served. */
const PATHS = DRAWN.map(({ path, headers, body }) => `${path} ${headers['x-tenant']} ${body}`)

describe("a service's generated parameters", () => {
  it('are drawn once from the scenario, within what the config allows, one value a name in each request', () => {
    expect(DRAWN).toHaveLength(DRAWN_REQUESTS)
    expect(drawnRequests(TEMPLATE, PARAMS, { seed: 'item', file: 'f', where: 'w' })).toEqual(DRAWN)
    expect(drawnRequests(TEMPLATE, PARAMS, { seed: 'other', file: 'f', where: 'w' })).not.toEqual(DRAWN)
    for (const served of PATHS) {
      const [, id, view, tenant, bodyId] = /** @type {RegExpExecArray} */ (
        /^\/items\/(\d+)\?view=(short|full) t-(north|south) \{"id":(\d+)\}$/.exec(served))
      expect(Number(id)).toBeGreaterThanOrEqual(1)
      expect(Number(id)).toBeLessThanOrEqual(100000)
      expect(bodyId).toBe(id)
      expect(['short', 'full']).toContain(view)
      expect(['north', 'south']).toContain(tenant)
    }
    expect(new Set(PATHS).size).toBeGreaterThan(DRAWN_REQUESTS * 0.9)
  })

  it('are verified with the first three of them', async () => {
    const { dir, served } = catalogue()
    const result = await runCli(['verify', '--app', dir], { timeoutMs: 30_000 })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(servedRequests(served)).toEqual(new Set(PATHS.slice(0, 3)))
  })

  it('is a config error naming each placeholder without a parameter, parameter without a placeholder and empty range', async () => {
    const { dir } = catalogue([
      "      path: '/items/{id}/{colour}'",
      "      body: '{shade}'",
      '      params:',
      '        id: { integer: { min: 10, max: 1 } }',
      '        size: { oneOf: [s, m] }'
    ])
    const result = await runCli(['verify', '--app', dir], { timeoutMs: 30_000 })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('breaks 4 rule(s)')
    expect(result.stderr).toContain('/scenarios/0/request/path: `{colour}` has no parameter; give params.colour')
    expect(result.stderr).toContain('/scenarios/0/request/body: `{shade}` has no parameter; give params.shade')
    expect(result.stderr).toContain('/scenarios/0/request/params/size: neither the path, a header nor the body has `{size}`')
    expect(result.stderr).toContain('/scenarios/0/request/params/id/integer: min 10 is above max 1')
  })

  // At 600 requests a second for a second, autocannon's schedule (each worker counting its own sends) reaches every one of the 512
  // requests; the others send them in turn too, each connection from its own share on, as far as the machine's speed, or the share of
  // the schedule each connection gets, takes it in a second.
  it.each([
    ['autocannon', { engine: 'autocannon' }, (/** @type {Set<string>} */ served) => expect(served.size).toBeGreaterThan(50)],
    ['autocannon at a fixed rate', { engine: 'autocannon', ratePerSec: 600 }, (served) => expect(served).toEqual(new Set(PATHS))],
    ['wrk', { engine: 'wrk' }, (served) => expect(served.size).toBeGreaterThan(50)],
    ['native, pipelined', { engine: 'native', pipelining: 4 }, (served) => expect(served.size).toBeGreaterThan(50)],
    ['native at a fixed rate', { engine: 'native', ratePerSec: 600 }, (served) => expect(served.size).toBeGreaterThan(50)]
  ])('are sent in turn under load (%s), and only they', async (_, fields, sentEnough) => {
    const { dir, served } = catalogue()
    const out = mkdtempSync(join(tmpdir(), 'dyno-catalogue-out-'))
    const result = await runCli(shortRun({ app: dir, durationSec: 1, launchWarmupSec: 0, out, ...fields }, ['--quiet-check', 'off']),
      { timeoutMs: 60_000 })
    const runDir = /results: (.+)/.exec(result.stdout)?.[1] ?? ''
    const [record] = writtenRun(runDir).records
    expect(record.status, result.stdout + result.stderr).toBe('ok')
    const sent = servedRequests(served)
    for (const path of sent) expect(PATHS).toContain(path)
    sentEnough(sent)
  })
})
