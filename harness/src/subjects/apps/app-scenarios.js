// @ts-check
// A service's scenarios as dyno's own are: a request verification checks first and load then repeats (or the requests they send in
// turn: generated parameters, a weighted mix), with what its answer must be.
import { readFileSync } from 'node:fs'
import { defineScenario } from '@dyno/scenarios'
import { mixedRequests } from './request-mix.js'
import { drawnRequests } from './request-params.js'
import { insideApp } from './read-app-config.js'

/**
 * @typedef {import('./read-app-config.js').AppRequest} AppRequest
 * @typedef {{ dir: string, file: string }} AppPlace the service's real directory and its config
 */

/**
 * @param {{ dir: string, file: string, config: import('./read-app-config.js').AppConfig }} app
 * @returns {import('@dyno/scenarios').Scenario[]}
 */
export function appScenarios ({ dir, file, config }) {
  const services = /** @type {('redis' | 'postgres')[]} */ (Object.keys(config.services ?? {}))
  return config.scenarios.map((scenario, index) => {
    const where = `/scenarios/${index}`
    const expected = scenario.expect.body
    const judgedBy = expected?.module === undefined
      ? expected
      : { module: insideApp(dir, file, `${where}/expect/body/module`, expected.module) }
    const { summary, request } = scenario.mix
      ? mixOf(scenario.mix, { dir, file }, { seed: scenario.name, where: `${where}/mix` })
      : singleOf(scenario.request, { dir, file }, { seed: scenario.name, where: `${where}/request` })
    return defineScenario({
      name: scenario.name,
      summary: scenario.summary ?? summary,
      countWeight: 1,
      waitsOnIo: scenario.waitsOnIo ?? false,
      services,
      request,
      expect: {
        status: scenario.expect.status,
        contentType: scenario.expect.contentType ?? null,
        ...(scenario.expect.headers ? { headers: scenario.expect.headers } : {}),
        body: judgedBy ?? null
      }
    })
  })
}

/**
 * One request, sent as it is or, with generated parameters, as its drawn requests in turn.
 * @param {AppRequest} request @param {AppPlace} place @param {{ seed: string, where: string }} origin
 * @returns {{ summary: string, request: import('@dyno/scenarios').RequestSpec }}
 */
function singleOf (request, place, { seed, where }) {
  const template = templateOf(request, place, where)
  const inTurn = request.params ? drawnRequests(template, request.params, { seed, file: place.file, where }) : null
  return { summary: `${template.method} ${template.path}`, request: { ...template, ...(inTurn ? { inTurn } : {}) } }
}

/**
 * A weighted mix, sent in turn; the scenario's request as such is the mix's first (what a caller that sends one request sends).
 * @param {{ weight: number, request: AppRequest }[]} mix @param {AppPlace} place @param {{ seed: string, where: string }} origin
 * @returns {{ summary: string, request: import('@dyno/scenarios').RequestSpec }}
 */
function mixOf (mix, place, { seed, where }) {
  const entries = mix.map(({ weight, request }, index) => ({
    weight, template: templateOf(request, place, `${where}/${index}/request`), params: request.params
  }))
  const inTurn = mixedRequests(entries, { seed, file: place.file, where })
  const summary = entries.map(({ weight, template }) => `${weight}× ${template.method} ${template.path}`).join(', ')
  const mixed = entries.map(({ weight, template }) => ({ weight, method: template.method, path: template.path }))
  return { summary: `mix of ${summary}`, request: { ...entries[inTurn[0].entry ?? 0].template, inTurn, mix: mixed } }
}

/**
 * @param {AppRequest} request @param {AppPlace} place @param {string} where the request's path in the config
 * @returns {import('@dyno/scenarios').DrawnRequest} with `{name}` where its parameters go
 */
function templateOf ({ method = 'GET', path, headers = {}, body, bodyFile }, { dir, file }, where) {
  const sent = bodyFile === undefined ? body ?? null : readFileSync(insideApp(dir, file, `${where}/bodyFile`, bodyFile), 'utf8')
  return { method: /** @type {import('@dyno/scenarios').RequestSpec['method']} */ (method), path, headers, body: sent }
}
