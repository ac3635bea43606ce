// @ts-check
// The start helpers of @dyno/scenarios/sut, in a real process as a SUT uses them: startServer listens on PORT/HOST,
// prints the one ready line with the port it bound and the protocol it serves, exits 0 on SIGTERM, and fails the start when it cannot
// listen.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { boundPort } from '../src/sut/index.js'

const SUT_MODULE = new URL('../src/sut/index.js', import.meta.url).href

/** A start file whose app is a bare node:http server (what node-http's is, less the routes). */
const START_FILE = `
import http from 'node:http'
import { startServer } from ${JSON.stringify(SUT_MODULE)}
await startServer(({ data }) => http.createServer((req, res) => res.end(typeof data.close)))
`

/** No data source variables: openDataSources opens nothing. */
const BARE_ENV = Object.fromEntries(Object.entries(process.env)
  .filter(([name]) => !['REDIS_URL', 'SQLITE_PATH', 'DATABASE_URL'].includes(name)))

/** @param {Record<string, string>} env */
function startChild (env) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', START_FILE], {
    env: { ...BARE_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => { stdout += chunk })
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const exited = /** @type {Promise<[number | null, string | null]>} */ (once(child, 'exit'))
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

describe('startServer', () => {
  it('listens on PORT 0 and HOST, prints one ready line with the bound port, answers, and exits 0 on SIGTERM', async () => {
    const started = startChild({ PORT: '0', HOST: '127.0.0.1' })
    await once(started.child.stdout, 'data')
    const ready = JSON.parse(started.stdout())
    expect(ready).toEqual({ event: 'ready', port: expect.any(Number), protocol: 'http1' })
    expect(ready.port).toBeGreaterThan(0)
    const response = await fetch(`http://127.0.0.1:${ready.port}/`)
    expect(await response.text()).toBe('function')
    started.child.kill('SIGTERM')
    expect(await started.exited).toEqual([0, null])
    expect(started.stdout().trim().split('\n')).toHaveLength(1)
  }, 15_000)

  it('fails the start (exit 1, the listen error on stderr, no ready line) when the port is taken', async () => {
    const taken = createServer()
    await new Promise((resolve) => taken.listen(0, '127.0.0.1', () => resolve(undefined)))
    try {
      const started = startChild({ PORT: String(boundPort(taken, 0)), HOST: '127.0.0.1' })
      expect(await started.exited).toEqual([1, null])
      expect(started.stderr()).toContain('EADDRINUSE')
      expect(started.stdout()).toBe('')
    } finally {
      taken.close()
    }
  }, 15_000)
})

describe('boundPort', () => {
  it('is the port of a TCP address, else the fallback', () => {
    expect(boundPort({ address: () => ({ address: '127.0.0.1', family: 'IPv4', port: 4321 }) }, 0)).toBe(4321)
    expect(boundPort({ address: () => null }, 8080)).toBe(8080)
    expect(boundPort({ address: () => '/tmp/dyno.sock' }, 8080)).toBe(8080)
    expect(boundPort(undefined, 8080)).toBe(8080)
  })
})
