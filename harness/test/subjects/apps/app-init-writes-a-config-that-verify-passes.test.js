// @ts-check
// `dyno app init --openapi`: the Petstore's OpenAPI 3.0 document gives a config with a scenario per operation, which `dyno verify --app`
// passes against a small server implementing it; operations no request can be made for are listed with why; a config that is there is
// never written over; without a document, a starter to fill in.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli.js'

const NODE = '#/components/schemas/Node'
const ANSWERS = { 200: { description: 'an answer' } }
const PETSTORE = fileURLToPath(new URL('../../fixtures/apps/petstore/', import.meta.url))

/** @returns {string} a directory holding the Petstore's document and server */
function petstore () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-petstore-'))
  for (const file of ['openapi.yaml', 'server.js']) copyFileSync(join(PETSTORE, file), join(dir, file))
  writeFileSync(join(dir, 'package.json'), '{ "name": "petstore", "type": "module" }')
  return dir
}

describe('dyno app init', () => {
  it('writes a scenario per operation of an OpenAPI document, which verify passes against the service', async () => {
    const dir = petstore()
    const init = await runCli(['app', 'init', dir, '--openapi', join(dir, 'openapi.yaml'), '--start', 'node server.js'])
    expect(init.code, init.stderr).toBe(0)
    expect(init.stdout).toContain('3 scenario(s): list-pets, create-pets, show-pet-by-id')
    const config = readFileSync(join(dir, 'dyno.config.yaml'), 'utf8')
    expect(config).toMatch(/path: \/pets\/sample/)
    expect(config).toMatch(/body: '\{"id":1,"name":"sample"\}'/)
    const verify = await runCli(['verify', '--app', dir], { timeoutMs: 30_000 })
    expect(verify.code, verify.stdout + verify.stderr).toBe(0)
    expect(verify.stdout).toMatch(/petstore\s+│ pass\s+│ pass\s+│ pass\s+│/)
    expect(verify.stderr).not.toMatch(/unknown format/)
    const again = await runCli(['app', 'init', dir, '--openapi', join(dir, 'openapi.yaml')])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain(`DYNO_ERR_APP_CONFIG: ${join(dir, 'dyno.config.yaml')} is there already`)
    expect(readFileSync(join(dir, 'dyno.config.yaml'), 'utf8')).toBe(config)
  })

  it('lists every operation it could make no request for, with why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-openapi-'))
    writeFileSync(join(dir, 'api.json'), JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'odd', version: '1' },
      paths: {
        '/ok': { get: { operationId: 'ok', responses: { 200: { description: 'fine' } } } },
        '/session': {
          get: { parameters: [{ name: 'sid', in: 'cookie', required: true, schema: { type: 'string' } }], responses: ANSWERS }
        },
        '/upload': { post: { requestBody: { required: true, content: { 'image/png': {} } }, responses: { 201: { description: 'x' } } } },
        '/gone': { delete: { responses: { 404: { description: 'x' } } } },
        '/codes/{code}': {
          get: {
            parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z]{3}$' } }],
            responses: ANSWERS
          }
        },
        '/loop': {
          get: { responses: { 200: { description: 'x', content: { 'application/json': { schema: { $ref: NODE } } } } } }
        }
      },
      components: { schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } } }
    }))
    const init = await runCli(['app', 'init', dir, '--openapi', join(dir, 'api.json'), '--start', 'node server.js'])
    expect(init.code, init.stderr).toBe(0)
    expect(init.stdout).toContain('1 scenario(s): ok')
    for (const line of [
      'no scenario for GET /session: it needs the cookie sid, and dyno sends none',
      'no scenario for POST /upload: its body is image/png, and dyno makes JSON bodies only',
      'no scenario for DELETE /gone: it describes no success status (2xx)',
      'no scenario for GET /codes/{code}: parameter code: its string must match ^[A-Z]{3}$, and dyno makes no value for a pattern',
      'no scenario for GET /loop: its schema refers to itself through #/components/schemas/Node'
    ]) expect(init.stdout).toContain(line)
    expect(readFileSync(join(dir, 'dyno.config.yaml'), 'utf8')).toContain('#   GET /session: it needs the cookie sid')
  })

  it('refuses a document that is not OpenAPI 3, naming it, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-openapi-'))
    writeFileSync(join(dir, 'swagger.yaml'), 'swagger: "2.0"\npaths: {}\n')
    const init = await runCli(['app', 'init', dir, '--openapi', join(dir, 'swagger.yaml')])
    expect(init.code).toBe(2)
    expect(init.stderr).toContain(`DYNO_ERR_APP_CONFIG: ${join(dir, 'swagger.yaml')}: it is not an OpenAPI 3 document`)
  })

  it('writes a starter that starts the service by its start script, without a document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-starter-'))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/Orders', scripts: { start: 'node index.js' } }))
    const init = await runCli(['app', 'init', dir])
    expect(init.code, init.stderr).toBe(0)
    const config = readFileSync(join(dir, 'dyno.config.yaml'), 'utf8')
    expect(config).toMatch(/^name: orders$/m)
    expect(config).toMatch(/- npm\n\s+- start\n\s+- --silent/)
    expect(config).toMatch(/# ready: \{ path: \/health, status: 200 \}/)
  })
})
