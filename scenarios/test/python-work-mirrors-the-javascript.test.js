// @ts-check
// dyno_scenarios (scenarios/python) is the Python transcription of this package: the same values, computed by
// the same rules. verify catches a drift only through a Python SUT's responses; this catches it here, at once.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PG_POOL_SIZE, REDIS_MESSAGE_KEY, WORLD_QUERY_POSTGRES, WORLD_QUERY_SQLITE, WORLD_ROW_COUNT } from '../src/data/index.js'
import { SERVED_PROTOCOLS } from '../src/index.js'
import { listenOptions } from '../src/sut/index.js'
import {
  EXTRA_ROUTES, FIBONACCI_N, HELLO_TEXT, INTENTIONAL_ERROR_MESSAGE, VALIDATION_RULES, WEBSOCKET_PATH, extraRouteBody, fibonacciResult,
  helloMessage, routeParams, validateQuery
} from '../src/work/index.js'

const SHARED_PYTHON_DIR = fileURLToPath(new URL('../python', import.meta.url))
const python = process.env.DYNO_PYTHON || 'python3'

/** Query strings the validation rules must judge alike: accepted, and each way of being rejected. */
const VALIDATION_CASES = [
  ['42', 'hello-dyno'], ['-7', 'hello'], ['0', 'exactly5'], ['9007199254740991', 'hello'],
  ['9007199254740992', 'hello'], ['4.2', 'hello'], ['abc', 'hello'], [' 42', 'hello'], ['+42', 'hello'], ['', 'hello'],
  [null, 'hello'], ['42', 'four'], ['42', null], ['42', '']
]

/** What dyno_scenarios computes for each of the values below (stdlib only: any Python ≥ 3.10 runs it). */
const PYTHON_PROBE = `
import json, sys
sys.path.insert(0, sys.argv[1])
from dyno_scenarios import data, sut, work
try:
    work.error_or_ok("1")
    error_message = None
except RuntimeError as error:
    error_message = str(error)
def validated(number, text):
    value, message = work.validate_query(number, text)
    return {"ok": True, "value": work.validation_result(*value)} if message is None else {"ok": False, "message": message}
print(json.dumps({
    "helloText": work.HELLO_TEXT,
    "hello": work.hello_message(),
    "fibonacciN": work.FIBONACCI_N,
    "fibonacci": work.fibonacci_result(),
    "params": work.route_params("u-4821", "1337"),
    "errorOk": [work.error_or_ok("0"), work.error_or_ok("2")],
    "errorMessage": error_message,
    "textMinLength": work.TEXT_MIN_LENGTH,
    "validations": [validated(number, text) for number, text in json.loads(sys.argv[2])],
    "extraRoutes": list(work.EXTRA_ROUTES),
    "websocketPath": work.WEBSOCKET_PATH,
    "extraRouteBody": work.extra_route_body("/api/v1/products/:id/reviews/:reviewId", {"id": "7", "reviewId": "r1"}),
    "worldRowCount": data.WORLD_ROW_COUNT,
    "redisMessageKey": data.REDIS_MESSAGE_KEY,
    "worldQuerySqlite": data.WORLD_QUERY_SQLITE,
    "worldQueryPostgres": data.WORLD_QUERY_POSTGRES_DOLLAR,
    "defaultPgPoolSize": data.read_data_env({}).pg_pool_size,
    "listen": sut.listen_options({}),
    "readyLine": sut.ready_line(8080),
    "readyLineH2c": sut.ready_line(8080, "h2c"),
    "servedProtocols": list(sut.SERVED_PROTOCOLS),
    "protocolDefault": sut.protocol({}),
}))
`

/** @returns {Record<string, any> | null} null when no Python runs here */
function pythonValues () {
  // -I: nothing from the environment or the working directory; -B: no __pycache__ in scenarios/python.
  const result = spawnSync(python, ['-I', '-B', '-c', PYTHON_PROBE, SHARED_PYTHON_DIR, JSON.stringify(VALIDATION_CASES)], {
    encoding: 'utf8'
  })
  if (/** @type {NodeJS.ErrnoException | undefined} */ (result.error)?.code === 'ENOENT') return null
  if (result.status !== 0) throw new Error(`dyno_scenarios failed under ${python}: ${result.error?.message ?? result.stderr}`)
  return JSON.parse(result.stdout)
}

const values = pythonValues()

describe.skipIf(values === null)(`dyno_scenarios under ${python} computes what the JavaScript computes`, () => {
  const py = /** @type {Record<string, any>} */ (values)

  it('the work of the static routes', () => {
    expect(py.helloText).toBe(HELLO_TEXT)
    expect(py.hello).toEqual(helloMessage())
    expect(py.fibonacciN).toBe(FIBONACCI_N)
    expect(py.fibonacci).toEqual(fibonacciResult())
    expect(py.params).toEqual(routeParams('u-4821', '1337'))
    expect(py.errorOk).toEqual([{ ok: true }, { ok: true }])
    expect(py.errorMessage).toBe(INTENTIONAL_ERROR_MESSAGE)
  })

  it('the validation rules and their messages', () => {
    expect(py.textMinLength).toBe(VALIDATION_RULES.textMinLength)
    const expected = VALIDATION_CASES.map(([number, text]) => validateQuery({ number: number ?? undefined, text: text ?? undefined }))
    expect(py.validations).toEqual(expected)
  })

  it('the extra routes and their bodies', () => {
    expect(py.extraRoutes).toEqual(EXTRA_ROUTES.map((route) => route.path))
    expect(py.websocketPath).toBe(WEBSOCKET_PATH)
    expect(py.extraRouteBody).toEqual(extraRouteBody('/api/v1/products/:id/reviews/:reviewId', { id: '7', reviewId: 'r1' }))
  })

  it('the data of the database scenarios', () => {
    expect(py.worldRowCount).toBe(WORLD_ROW_COUNT)
    expect(py.redisMessageKey).toBe(REDIS_MESSAGE_KEY)
    expect(py.worldQuerySqlite).toBe(WORLD_QUERY_SQLITE)
    expect(py.worldQueryPostgres).toBe(WORLD_QUERY_POSTGRES)
    expect(py.defaultPgPoolSize).toBe(DEFAULT_PG_POOL_SIZE)
  })

  it('where a SUT listens and its ready line', () => {
    const { host, port } = listenOptions({})
    expect(py.listen).toEqual([host, port])
    expect(py.readyLine).toBe(JSON.stringify({ event: 'ready', port: 8080, protocol: 'http1' }) + '\n')
    expect(py.readyLineH2c).toBe(JSON.stringify({ event: 'ready', port: 8080, protocol: 'h2c' }) + '\n')
    expect(py.servedProtocols).toEqual(SERVED_PROTOCOLS)
    expect(py.protocolDefault).toBe('http1')
  })
})
