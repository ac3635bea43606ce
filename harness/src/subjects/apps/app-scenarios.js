// @ts-check
// A service's scenarios as dyno's own are: a request verification checks first and load then repeats, with what its answer must be.
import { readFileSync } from 'node:fs'
import { defineScenario } from '@dyno/scenarios'
import { drawnRequests } from './request-params.js'
import { insideApp } from './read-app-config.js'

/**
 * @param {{ dir: string, file: string, config: import('./read-app-config.js').AppConfig }} app
 * @returns {import('@dyno/scenarios').Scenario[]}
 */
export function appScenarios ({ dir, file, config }) {
  const services = /** @type {('redis' | 'postgres')[]} */ (Object.keys(config.services ?? {}))
  return config.scenarios.map((scenario, index) => {
    const { method = 'GET', path, headers = {}, body, bodyFile, params } = scenario.request
    const where = `/scenarios/${index}/request/bodyFile`
    const sent = bodyFile === undefined ? body ?? null : readFileSync(insideApp(dir, file, where, bodyFile), 'utf8')
    const drawnFrom = { seed: scenario.name, file, where: `/scenarios/${index}/request` }
    const expected = scenario.expect.body
    const judgedBy = expected?.module === undefined
      ? expected
      : { module: insideApp(dir, file, `/scenarios/${index}/expect/body/module`, expected.module) }
    return defineScenario({
      name: scenario.name,
      summary: scenario.summary ?? `${method} ${path}`,
      countWeight: 1,
      waitsOnIo: scenario.waitsOnIo ?? false,
      services,
      request: {
        method: /** @type {import('@dyno/scenarios').RequestSpec['method']} */ (method),
        path,
        headers,
        body: sent,
        ...(params ? { inTurn: drawnRequests({ path, headers, body: sent }, params, drawnFrom) } : {})
      },
      expect: {
        status: scenario.expect.status,
        contentType: scenario.expect.contentType ?? null,
        body: judgedBy ?? null
      }
    })
  })
}
