// @ts-check
import { fibonacciResult } from '../work/fibonacci.js'
import { defineScenario } from './define-scenario.js'

export const fibonacci = defineScenario({
  name: 'fibonacci',
  summary: 'CPU-bound: naive recursive fibonacci(23) on every request.',
  countWeight: 14.2,
  request: { method: 'GET', path: '/fibonacci' },
  expect: { status: 200, contentType: 'application/json', body: { json: fibonacciResult() } }
})
