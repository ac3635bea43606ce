// @ts-check
import { defineScenario } from './define-scenario.js'

export const sqlite = defineScenario({
  name: 'sqlite',
  summary: 'One row of the world table by random id through better-sqlite3 (synchronous).',
  countWeight: 1.04,
  request: { method: 'GET', path: '/sqlite' },
  expect: { status: 200, contentType: 'application/json', body: { check: 'worldRow' }, varies: true },
  services: ['sqlite'],
  waitsOnIo: true
})
