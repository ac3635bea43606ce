// @ts-check
import { describe, expect, it } from 'vitest'
import {
  EXTRA_ROUTES, FIBONACCI_N, HELLO_TEXT, INTENTIONAL_ERROR_MESSAGE, errorOrOk, extraRouteBody, fibonacci,
  fibonacciResult, helloMessage, routeParams, validateQuery, validationResult
} from '../src/work/index.js'

describe('fibonacci', () => {
  it.each([[0, 0], [1, 1], [2, 1], [10, 55], [20, 6765], [23, 28657]])('fibonacci(%i) = %i', (n, value) => {
    expect(fibonacci(n)).toBe(value)
  })

  it('answers n = 23 with its value, computed on each call', () => {
    expect(FIBONACCI_N).toBe(23)
    const first = fibonacciResult()
    const second = fibonacciResult()
    expect(first).toEqual({ n: 23, value: 28657 })
    expect(second).not.toBe(first)
  })
})

describe('hello', () => {
  it('is the text and a fresh object each time', () => {
    expect(HELLO_TEXT).toBe('Hello, World!')
    expect(helloMessage()).toEqual({ message: 'Hello, World!' })
    expect(helloMessage()).not.toBe(helloMessage())
  })
})

describe('error flag', () => {
  it('throws the intentional error on flag 1 only', () => {
    expect(() => errorOrOk('1')).toThrowError(INTENTIONAL_ERROR_MESSAGE)
    expect(errorOrOk('0')).toEqual({ ok: true })
    expect(errorOrOk('2')).toEqual({ ok: true })
  })
})

describe('validateQuery', () => {
  it.each([
    [{ number: '42', text: 'hello' }, { number: 42, text: 'hello' }],
    [{ number: '-7', text: 'abcdef' }, { number: -7, text: 'abcdef' }],
    [{ number: '0', text: 'hello-dyno' }, { number: 0, text: 'hello-dyno' }]
  ])('accepts %j', (query, value) => {
    expect(validateQuery(query)).toEqual({ ok: true, value })
  })

  it.each([
    [{ text: 'hello' }, /`number` must be an integer/],
    [{ number: '4.2', text: 'hello' }, /`number` must be an integer/],
    [{ number: 'abc', text: 'hello' }, /`number` must be an integer/],
    [{ number: '', text: 'hello' }, /`number` must be an integer/],
    [{ number: '99999999999999999999', text: 'hello' }, /safe integer/],
    [{ number: '42', text: 'abcd' }, /at least 5 characters/],
    [{ number: '42' }, /at least 5 characters/],
    [{ number: ['1', '2'], text: 'hello' }, /`number` must be an integer/]
  ])('rejects %j', (query, message) => {
    const checked = validateQuery(query)
    expect(checked.ok).toBe(false)
    expect(checked.ok === false && checked.message).toMatch(message)
  })

  it('builds the body from the validated values', () => {
    expect(validationResult(42, 'hello-dyno')).toEqual({ number: 42, text: 'hello-dyno' })
  })
})

describe('routes', () => {
  it('echoes both params as strings', () => {
    expect(routeParams('u-1', '2')).toEqual({ userId: 'u-1', postId: '2' })
  })

  it('has 20 distinct extra routes, static and parameterised, none colliding with the contract', () => {
    expect(EXTRA_ROUTES).toHaveLength(20)
    expect(new Set(EXTRA_ROUTES.map((route) => route.path)).size).toBe(20)
    expect(EXTRA_ROUTES.filter((route) => route.path.includes(':')).length).toBeGreaterThanOrEqual(10)
    expect(EXTRA_ROUTES.filter((route) => !route.path.includes(':')).length).toBeGreaterThanOrEqual(5)
    for (const route of EXTRA_ROUTES) expect(route.path).toMatch(/^\/(api|static|account)\//)
  })

  it('answers an extra route with its pattern and a copy of the params', () => {
    const params = { id: '7' }
    const body = extraRouteBody('/api/v1/products/:id', params)
    expect(body).toEqual({ route: '/api/v1/products/:id', params: { id: '7' } })
    expect(body.params).not.toBe(params)
  })
})
