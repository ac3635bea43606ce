// @ts-check
import { REDIS_MESSAGE_VALUE } from '../data/world.js'
import { defineScenario } from './define-scenario.js'

export const redis = defineScenario({
  name: 'redis',
  summary: 'One Redis GET (ioredis) per request, answered as JSON.',
  countWeight: 1.57,
  request: { method: 'GET', path: '/redis' },
  expect: { status: 200, contentType: 'application/json', body: { json: { message: REDIS_MESSAGE_VALUE } } },
  services: ['redis'],
  waitsOnIo: true,
  queryCountedBy: 'redis'
})
