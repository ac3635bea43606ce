// @ts-check
import { defineScenario } from './define-scenario.js'

export const postgresJs = defineScenario({
  name: 'postgres-js',
  summary: 'The same query through postgres.js.',
  countWeight: 2.43,
  request: { method: 'GET', path: '/postgres-js' },
  expect: { status: 200, contentType: 'application/json', body: { check: 'worldRow' }, varies: true },
  services: ['postgres'],
  waitsOnIo: true,
  queryCountedBy: 'postgres'
})
