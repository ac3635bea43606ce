// @ts-check
import { defineScenario } from './define-scenario.js'

export const sqliteAsync = defineScenario({
  name: 'sqlite-async',
  summary: 'The same query through the asynchronous sqlite3 driver.',
  countWeight: 1.1,
  request: { method: 'GET', path: '/sqlite-async' },
  expect: { status: 200, contentType: 'application/json', body: { check: 'worldRow' }, varies: true },
  services: ['sqlite'],
  waitsOnIo: true
})
