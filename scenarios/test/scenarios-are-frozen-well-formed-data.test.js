// @ts-check
import { describe, expect, it } from 'vitest'
import { DEFAULT_LOAD, ECHO_BODY, SCENARIOS } from '../src/index.js'

describe('the scenario catalogue', () => {
  it('holds the whole contract, each name once', () => {
    expect(SCENARIOS.map((scenario) => scenario.name)).toEqual(['plaintext', 'json', 'params', 'post', 'fibonacci', 'error', 'validation', 'not-found',
      'redis', 'sqlite', 'sqlite-async', 'postgres', 'postgres-js'])
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
    expect(byName.postgres).toMatchObject({ services: ['postgres'], queryCountedBy: 'postgres', expect: { body: { check: 'worldRow' }, varies: true } })
    expect(byName['postgres-js']).toMatchObject({ services: ['postgres'], queryCountedBy: 'postgres' })
    expect(byName.sqlite.services).toEqual(['sqlite'])
    expect(byName['sqlite-async'].services).toEqual(['sqlite'])
    expect(byName.json.services).toBeUndefined()
  })
})
