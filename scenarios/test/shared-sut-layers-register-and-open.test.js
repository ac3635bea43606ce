// @ts-check
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { addContractRoutes } from '../src/express-api.js'
import { WORLD_TABLE_DDL, openDataSourcesWithOwnSqlite, randomNumberFor, worldRows } from '../src/data/index.js'
import { EXTRA_ROUTES, HELLO_TEXT } from '../src/work/index.js'

/** An Express-API app that only records what is registered. */
function recordingApp () {
  /** @type {{ method: string, path: string, handlers: any[] }[]} */
  const routes = []
  return {
    routes,
    /** @param {string} path @param {any[]} handlers */
    get (path, ...handlers) { routes.push({ method: 'GET', path, handlers }) },
    /** @param {string} path @param {any[]} handlers */
    post (path, ...handlers) { routes.push({ method: 'POST', path, handlers }) }
  }
}

/** A response that records its answer. */
function recordingResponse () {
  const answer = { status: 200, type: '', body: /** @type {unknown} */ (undefined) }
  const res = {
    answer,
    /** @param {string} type */
    type (type) { answer.type = type; return res },
    /** @param {number} code */
    status (code) { answer.status = code; return res },
    /** @param {string} body */
    send (body) { answer.body = body },
    /** @param {unknown} body */
    json (body) { answer.type = 'json'; answer.body = body }
  }
  return res
}

describe('addContractRoutes (the contract on the Express API)', () => {
  const jsonBody = () => {}
  const echoErrorHandler = () => {}

  it('registers every route of the contract and the extra routes, with the framework\'s body parser on /echo', () => {
    const app = recordingApp()
    expect(addContractRoutes(app, { jsonBody })).toBe(app)
    expect(app.routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /plaintext', 'GET /json', 'GET /users/:userId/posts/:postId', 'POST /echo', 'GET /fibonacci', 'GET /error/:flag',
      'GET /validation', 'GET /redis', 'GET /sqlite', 'GET /sqlite-async', 'GET /postgres', 'GET /postgres-js',
      ...EXTRA_ROUTES.map((route) => `GET ${route.path}`)
    ])
    const echo = app.routes.find((route) => route.path === '/echo')
    expect(echo?.handlers).toHaveLength(2)
    expect(echo?.handlers[0]).toBe(jsonBody)
  })

  it('puts the error middleware after the /echo handler only when given', () => {
    const app = recordingApp()
    addContractRoutes(app, { jsonBody, echoErrorHandler })
    const echo = app.routes.find((route) => route.path === '/echo')
    expect(echo?.handlers).toHaveLength(3)
    expect(echo?.handlers[2]).toBe(echoErrorHandler)
    expect(app.routes.filter((route) => route.handlers.includes(echoErrorHandler))).toHaveLength(1)
  })

  it('answers through the shared work functions', async () => {
    const app = recordingApp()
    addContractRoutes(app, { jsonBody })
    /** @param {string} path @param {object} req */
    const answer = async (path, req) => {
      const res = recordingResponse()
      const handlers = /** @type {any[]} */ (app.routes.find((route) => route.path === path)?.handlers)
      await handlers.at(-1)({ params: {}, query: {}, ...req }, res)
      return res.answer
    }
    expect(await answer('/plaintext', {})).toEqual({ status: 200, type: 'text/plain', body: HELLO_TEXT })
    expect(await answer('/users/:userId/posts/:postId', { params: { userId: 'u-1', postId: '2' } }))
      .toEqual({ status: 200, type: 'json', body: { userId: 'u-1', postId: '2' } })
    expect(await answer('/echo', { body: { a: [1] } })).toEqual({ status: 200, type: 'json', body: { a: [1] } })
    expect(await answer('/validation', { query: { number: '42', text: 'hello-dyno' } }))
      .toEqual({ status: 200, type: 'json', body: { number: 42, text: 'hello-dyno' } })
    expect((await answer('/validation', { query: { text: 'hello-dyno' } })).status).toBe(400)
    await expect(answer('/redis', {})).rejects.toThrowError(/REDIS_URL is not set/)
  })
})

describe('openDataSourcesWithOwnSqlite (a runtime\'s own synchronous sqlite driver)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'dyno-own-sqlite-'))
  const path = join(directory, 'world.db')
  const seed = new Database(path)
  seed.exec(WORLD_TABLE_DDL)
  const insert = seed.prepare('INSERT INTO world (id, randomnumber) VALUES (?, ?)')
  seed.transaction(() => { for (const row of worldRows()) insert.run(...row) })()
  seed.close()
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('does not open the driver without SQLITE_PATH', async () => {
    let opened = 0
    const data = await openDataSourcesWithOwnSqlite(() => { opened++; return new Database(path, { readonly: true }) }, {})
    expect(opened).toBe(0)
    expect(() => data.sqliteWorld()).toThrowError(/SQLITE_PATH is not set/)
    await data.close()
  })

  it('serves sqlite through the given driver, sqlite-async through the shared one, and closes the driver', async () => {
    /** @type {string[]} */
    const calls = []
    const data = await openDataSourcesWithOwnSqlite((file) => {
      calls.push(`open ${file}`)
      const database = new Database(file, { readonly: true })
      return {
        prepare: (sql) => {
          const statement = database.prepare(sql)
          return {
            get: (...params) => {
              calls.push('get')
              return statement.get(...params)
            }
          }
        },
        close: () => {
          calls.push('close')
          database.close()
        }
      }
    }, { SQLITE_PATH: path })
    const row = data.sqliteWorld()
    expect(row.randomNumber).toBe(randomNumberFor(row.id))
    const asyncRow = await data.sqliteAsyncWorld()
    expect(asyncRow.randomNumber).toBe(randomNumberFor(asyncRow.id))
    await data.close()
    expect(calls).toEqual([`open ${path}`, 'get', 'close'])
  })
})
