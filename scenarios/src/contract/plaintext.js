// @ts-check
import { HELLO_TEXT } from '../work/hello.js'
import { defineScenario } from './define-scenario.js'

export const plaintext = defineScenario({
  name: 'plaintext',
  summary: 'A fixed text body: the framework overhead with no serialization.',
  countWeight: 1,
  request: { method: 'GET', path: '/plaintext' },
  expect: { status: 200, contentType: 'text/plain', body: { text: HELLO_TEXT } }
})
