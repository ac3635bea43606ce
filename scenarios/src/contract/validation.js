// @ts-check
import { validationResult } from '../work/validation.js'
import { defineScenario } from './define-scenario.js'

/** @param {string} name @param {string} query */
const rejected = (name, query) => ({
  name,
  request: /** @type {const} */ ({ method: 'GET', path: `/validation${query}` }),
  expect: { status: 400, contentType: null, body: null, noStackTrace: true }
})

export const validation = defineScenario({
  name: 'validation',
  summary: "Query parameters checked by the framework's own validator (or the shared check where it has none).",
  countWeight: 1.04,
  request: { method: 'GET', path: '/validation?number=42&text=hello-dyno' },
  expect: { status: 200, contentType: 'application/json', body: { json: validationResult(42, 'hello-dyno') } },
  probes: [
    {
      name: 'other valid values are echoed',
      request: { method: 'GET', path: '/validation?number=-7&text=abcdef' },
      expect: { status: 200, contentType: 'application/json', body: { json: validationResult(-7, 'abcdef') } }
    },
    rejected('missing number is rejected with 400', '?text=hello-dyno'),
    rejected('a non-integer number is rejected with 400', '?number=4.2&text=hello-dyno'),
    rejected('a non-numeric number is rejected with 400', '?number=abc&text=hello-dyno'),
    rejected('text of 4 characters is rejected with 400', '?number=42&text=abcd'),
    rejected('missing text is rejected with 400', '?number=42')
  ]
})
