// @ts-check
import { describe, expect, it } from 'vitest'
import { DEFAULT_LOAD, ECHO_BODY, LOAD_PROFILES, PROTOCOLS, SCENARIOS, SERVED_PROTOCOLS } from '../src/index.js'

describe('the scenario catalogue', () => {
  it('holds the whole contract, each name once', () => {
    expect(SCENARIOS.map((scenario) => scenario.name)).toEqual([
      'plaintext',
      'json',
      'params',
      'post',
      'fibonacci',
      'error',
      'validation',
      'not-found',
      'redis',
      'sqlite',
      'sqlite-async',
      'postgres',
      'postgres-js',
      'tls-json',
      'h2-json',
      'h2c-json',
      'ws-echo'
    ])
  })

  it('is frozen data, down to the probes', () => {
    for (const scenario of SCENARIOS) {
      expect(Object.isFrozen(scenario)).toBe(true)
      expect(Object.isFrozen(scenario.request)).toBe(true)
      expect(Object.isFrozen(scenario.expect)).toBe(true)
      for (const probe of scenario.probes) expect(Object.isFrozen(probe.expect)).toBe(true)
    }
    expect(() => { /** @type {any} */ (SCENARIOS[0]).name = 'changed' }).toThrow(TypeError)
  })

  it('gives every request a method, a path, headers and a body (null when none)', () => {
    for (const { request, probes } of SCENARIOS) {
      for (const spec of [request, ...probes.map((probe) => probe.request)]) {
        expect(spec.method).toMatch(/^(GET|POST)$/)
        expect(spec.path).toMatch(/^\//)
        expect(spec.headers).toBeTypeOf('object')
        expect(spec.body === null || typeof spec.body === 'string').toBe(true)
      }
    }
  })

  it('sends a ~1 KB JSON body in the post scenario', () => {
    const post = SCENARIOS.find((scenario) => scenario.name === 'post')
    expect(post?.request.body).toBe(JSON.stringify(ECHO_BODY))
    const bytes = Buffer.byteLength(post?.request.body ?? '')
    expect(bytes).toBeGreaterThan(900)
    expect(bytes).toBeLessThan(1200)
  })

  it('checks every negative case of the validation contract', () => {
    const validation = SCENARIOS.find((scenario) => scenario.name === 'validation')
    const rejected = validation?.probes.filter((probe) => probe.expect.status === 400).map((probe) => probe.request.path)
    expect(rejected).toEqual(expect.arrayContaining([
      '/validation?text=hello-dyno', '/validation?number=4.2&text=hello-dyno', '/validation?number=42&text=abcd'
    ]))
  })

  it('has a default load profile of 100 connections, pipelining 1, 10 s after a 3 s warmup', () => {
    expect(DEFAULT_LOAD).toEqual({ connections: 100, pipelining: 1, durationSec: 10, warmupSec: 3 })
  })

  it('names the services of the database scenarios and how the server counts their queries', () => {
    const byName = Object.fromEntries(SCENARIOS.map((scenario) => [scenario.name, scenario]))
    expect(byName.redis).toMatchObject({ services: ['redis'], queryCountedBy: 'redis' })
    expect(byName.postgres).toMatchObject({
      services: ['postgres'],
      queryCountedBy: 'postgres',
      expect: { body: { check: 'worldRow' }, varies: true }
    })
    expect(byName['postgres-js']).toMatchObject({ services: ['postgres'], queryCountedBy: 'postgres' })
    expect(byName.sqlite.services).toEqual(['sqlite'])
    expect(byName['sqlite-async'].services).toEqual(['sqlite'])
    expect(byName.json.services).toBeUndefined()
  })

  it('speaks every scenario in a known protocol: HTTP/1.1 in cleartext unless the scenario says otherwise', () => {
    const protocolOf = Object.fromEntries(SCENARIOS.map((scenario) => [scenario.name, scenario.protocol]))
    expect(protocolOf).toMatchObject({
      plaintext: 'http1', json: 'http1', postgres: 'http1', 'tls-json': 'tls', 'h2-json': 'h2', 'h2c-json': 'h2c', 'ws-echo': 'ws'
    })
    for (const scenario of SCENARIOS) expect(Object.keys(PROTOCOLS)).toContain(scenario.protocol)
    expect(SERVED_PROTOCOLS).toEqual(['http1', 'tls', 'h2', 'h2c'])
    // WebSocket is upgraded from the plain HTTP/1.1 server, so its SUT process is the one of every http1 scenario.
    expect(PROTOCOLS.ws.serves).toBe('http1')
    expect(Object.entries(PROTOCOLS).filter(([, protocol]) => protocol.tls).map(([name]) => name)).toEqual(['tls', 'h2'])
  })

  it('asks the json route over TLS and HTTP/2 for the json body', () => {
    const json = SCENARIOS.find((scenario) => scenario.name === 'json')
    for (const name of ['tls-json', 'h2-json', 'h2c-json']) {
      const scenario = SCENARIOS.find((candidate) => candidate.name === name)
      expect(scenario?.request).toEqual(json?.request)
      expect(scenario?.expect).toEqual(json?.expect)
      expect(scenario?.countWeight).toBeGreaterThanOrEqual(json?.countWeight ?? 1)
    }
  })

  it('sends the WebSocket scenario a text, 256 fixed bytes and a burst of numbered messages, and closes with 1000', () => {
    const ws = SCENARIOS.find((scenario) => scenario.name === 'ws-echo')
    expect(ws?.request).toMatchObject({ method: 'GET', path: '/ws', headers: { upgrade: 'websocket' } })
    expect(ws?.expect.status).toBe(101)
    const exchange = ws?.websocket
    expect(exchange).toMatchObject({ path: '/ws', closeCode: 1000, plainRequestStatus: { min: 400, max: 499 } })
    expect([...Buffer.from(exchange?.binaryBase64 ?? '', 'base64')]).toEqual(Array.from({ length: 256 }, (_, index) => index))
    expect(new Set(exchange?.burst).size).toBe(20)
    expect(Object.isFrozen(exchange?.burst)).toBe(true)
    for (const scenario of SCENARIOS.filter((candidate) => candidate.name !== 'ws-echo')) expect(scenario.websocket).toBeUndefined()
  })

  it('keeps the protocol scenarios out of the default profile (its ten minutes) and every other that lists its scenarios, and in ' +
    '`protocols`', () => {
    const protocolScenarios = SCENARIOS.filter((scenario) => scenario.protocol !== 'http1').map((scenario) => scenario.name)
    for (const [name, profile] of Object.entries(LOAD_PROFILES).filter(([name]) => name !== 'protocols')) {
      for (const scenario of profile.scenarios ?? []) expect(protocolScenarios, `profile ${name}`).not.toContain(scenario)
    }
    expect(LOAD_PROFILES.protocols.scenarios).toEqual(protocolScenarios)
    expect(LOAD_PROFILES.standard.scenarios).toBeNull()
  })
})
