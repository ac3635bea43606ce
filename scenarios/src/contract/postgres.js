// @ts-check
import { defineScenario } from './define-scenario.js'

export const postgres = defineScenario({
  name: 'postgres',
  summary: 'One row of the world table by random id through a pg Pool.',
  countWeight: 2.43,
  request: { method: 'GET', path: '/postgres' },
  expect: { status: 200, contentType: 'application/json', body: { check: 'worldRow' }, varies: true },
  services: ['postgres'],
  waitsOnIo: true,
  queryCountedBy: 'postgres'
})
