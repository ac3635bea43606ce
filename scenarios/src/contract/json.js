// @ts-check
import { helloMessage } from '../work/hello.js'
import { defineScenario } from './define-scenario.js'

export const json = defineScenario({
  name: 'json',
  summary: 'A small object serialized to JSON on every request.',
  countWeight: 1,
  request: { method: 'GET', path: '/json' },
  expect: { status: 200, contentType: 'application/json', body: { text: JSON.stringify(helloMessage()) } }
})
