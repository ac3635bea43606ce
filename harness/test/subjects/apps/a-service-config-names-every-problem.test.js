// @ts-check
// A service's dyno.config is read from another repository: each way it can be wrong is refused before anything starts, naming the
// file, the path inside it and what is allowed, every problem at once. A config module runs in a process of its own.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadApp } from '../../../src/subjects/apps/load-app.js'

const GOOD_SCENARIO = 'scenarios:\n  - name: health\n    request: { path: /health }\n    expect: { status: 200 }\n'

/** @param {string} text @param {string} [file] @returns {string} a directory holding the config */
function serviceWith (text, file = 'dyno.config.yaml') {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-app-config-'))
  writeFileSync(join(dir, 'server.js'), '')
  writeFileSync(join(dir, file), text)
  return dir
}

/** @param {string} dir @returns {string} the message of the error loading it gives */
function refusal (dir) {
  try {
    loadApp(dir)
  } catch (error) {
    expect(/** @type {any} */ (error).code).toBe('DYNO_ERR_APP_CONFIG')
    return /** @type {Error} */ (error).message
  }
  throw new Error(`${dir}: its config was accepted`)
}

describe('a service config', () => {
  it('is read from YAML or JSON, with defaults for what it leaves out', () => {
    const yaml = loadApp(serviceWith(`start: { file: server.js }\n${GOOD_SCENARIO}`))
    expect(yaml.scenarios.map((scenario) => scenario.name)).toEqual(['health'])
    expect(yaml.scenarios[0].request).toMatchObject({ method: 'GET', path: '/health', body: null })
    expect(yaml.suts[0].readiness).toEqual({ kind: 'probe', path: '/', status: null, port: 'env' })
    const json = loadApp(serviceWith(JSON.stringify({
      name: 'shop',
      start: { command: ['node', 'server.js'], port: 8123 },
      scenarios: [{ name: 'home', request: { path: '/' }, expect: { status: 200 } }]
    }), 'dyno.config.json'))
    expect(json.name).toBe('shop')
    expect(json.suts[0]).toMatchObject({ runtimeKind: 'command', command: ['node', 'server.js'], packageName: 'app:shop' })
    expect(json.suts[0].readiness).toMatchObject({ port: 8123 })
  })

  it('is looked for in the directory, and its absence named with the files looked for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-app-config-'))
    expect(refusal(dir)).toMatch(/no dyno\.config\.yaml, dyno\.config\.yml, dyno\.config\.json, dyno\.config\.mjs, dyno\.config\.js here/)
  })

  it('that does not parse is named with the file', () => {
    const dir = serviceWith('start: { file: server.js\nscenarios: [')
    expect(refusal(dir)).toMatch(new RegExp(`${join(dir, 'dyno.config.yaml')} does not parse`))
  })

  it('names every problem at once, each with the path inside the file and what is allowed', () => {
    const dir = serviceWith([
      'name: ../escape',
      'start: { file: server.js, command: [node], colour: blue }',
      'scenarios:',
      '  - name: list',
      '    request: { method: FETCH, path: /items, body: x, bodyFile: x.json }',
      '    expect: { status: 999 }'
    ].join('\n'))
    const message = refusal(dir)
    const file = join(dir, 'dyno.config.yaml')
    for (const problem of [
      '/name: must match pattern',
      '/start: `colour` is not a key dyno knows here',
      '/start: give either `file` or `command`, not both or neither',
      '/scenarios/0/request/method: must be one of GET, POST, PUT, DELETE, PATCH',
      '/scenarios/0/request: give `body` or `bodyFile`, not both',
      '/scenarios/0/expect/status: must be <= 599'
    ]) expect(message).toContain(`${file}: ${problem}`)
  })

  it('refuses a path that leads outside the service, by a symbolic link too', () => {
    const dir = serviceWith(`start: { file: server.js, cwd: ../ }\n${GOOD_SCENARIO}`)
    expect(refusal(dir)).toMatch(/\/start\/cwd: `\.\.\/` is outside the service's directory/)
    const linked = serviceWith([
      'start: { file: server.js }',
      'scenarios:',
      '  - name: send',
      '    request: { method: POST, path: /send, bodyFile: body.json }',
      '    expect: { status: 200 }'
    ].join('\n'))
    symlinkSync('/etc/passwd', join(linked, 'body.json'))
    expect(refusal(linked)).toMatch(/\/scenarios\/0\/request\/bodyFile: `body\.json` is outside the service's directory/)
    const absent = serviceWith(`start: { file: nowhere.js }\n${GOOD_SCENARIO}`)
    expect(refusal(absent)).toMatch(/\/start\/file: `.*nowhere\.js` does not exist/)
  })

  it('is read from a module, whose default export (or what its function gives) is judged as a YAML config is', () => {
    const body = 'JSON.stringify({ lines: Array.from({ length: 3 }, (_, index) => ({ sku: "item-" + index })) })'
    const dir = serviceWith([
      "import { readFileSync } from 'node:fs'",
      "console.log('a module may print; this is not its config')",
      'export default async () => ({',
      "  name: JSON.parse(readFileSync('package.json', 'utf8')).name,",
      "  start: { file: 'server.js' },",
      `  scenarios: [{ name: 'order', request: { method: 'POST', path: '/order', body: ${body} }, expect: { status: 200 } }]`,
      '})'
    ].join('\n'), 'dyno.config.mjs')
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'computed-shop' }))
    const app = loadApp(dir)
    expect(app.name).toBe('computed-shop')
    expect(JSON.parse(/** @type {string} */ (app.scenarios[0].request.body)).lines).toHaveLength(3)
  })

  it('from a module, names what it gives that is not data by its path, and a module that fails or gives no object', () => {
    const notData = serviceWith([
      "export default { start: { file: 'server.js', env: { TOKEN: undefined } },",
      "  scenarios: [{ name: 'home', request: { path: '/', body: () => 'x' }, expect: { status: 200 } }] }"
    ].join('\n'), 'dyno.config.mjs')
    const file = join(notData, 'dyno.config.mjs')
    const message = refusal(notData)
    expect(message).toContain(`${file}: /start/env/TOKEN: is undefined, which a config cannot hold`)
    expect(message).toContain(`${file}: /scenarios/0/request/body: is a function, which a config cannot hold`)
    expect(refusal(serviceWith("throw new Error('no fixtures here')", 'dyno.config.mjs')))
      .toMatch(/dyno\.config\.mjs does not load: no fixtures here/)
    expect(refusal(serviceWith('export default [1, 2]', 'dyno.config.mjs')))
      .toMatch(/dyno\.config\.mjs its default export must be the config object, or a function returning it; it gave an array/)
    expect(refusal(serviceWith("export default { start: { file: 'server.js' }, scenarios: [] }", 'dyno.config.mjs')))
      .toMatch(/dyno\.config\.mjs: \/scenarios: must NOT have fewer than 1 items/)
  })

  it('takes no key from the file onto an object\'s prototype', () => {
    const dir = serviceWith(`__proto__: { polluted: true }\nstart: { file: server.js }\n${GOOD_SCENARIO}`)
    refusal(dir)
    expect(/** @type {any} */ ({}).polluted).toBeUndefined()
  })
})
