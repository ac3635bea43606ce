// @ts-check
// What `dyno.config.yaml` (or `.json`, or a module's default export) may hold: how to start the service, the services it needs and
// its scenarios. The config is read from another repository, so names are plain words (they become file names), and nothing else is
// allowed beside the known keys.

const NAME = { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' }
const HEADER_NAME = '^[A-Za-z0-9!#$%&\'*+.^_`|~-]{1,128}$'
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']
const SERVICE = {
  type: 'object',
  additionalProperties: false,
  properties: { env: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]{0,63}$' } }
}

// A generated parameter: a whole number in a range, or one of some words; each fits in a path as it is.
const PARAM = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    integer: {
      type: 'object',
      additionalProperties: false,
      required: ['min', 'max'],
      properties: { min: { type: 'integer', minimum: -1e15, maximum: 1e15 }, max: { type: 'integer', minimum: -1e15, maximum: 1e15 } }
    },
    oneOf: { type: 'array', minItems: 1, maxItems: 10000, items: { type: 'string', pattern: '^[\\x21-\\x7e]{1,256}$' } }
  }
}

const REQUEST = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    method: { enum: METHODS },
    path: { type: 'string', pattern: '^/[\\x21-\\x7e]{0,2047}$' },
    headers: {
      type: 'object',
      propertyNames: { pattern: HEADER_NAME },
      additionalProperties: { type: 'string', pattern: '^[\\x20-\\x7e]{0,4096}$' }
    },
    body: { type: 'string' },
    bodyFile: { type: 'string', minLength: 1 },
    params: {
      type: 'object',
      minProperties: 1,
      maxProperties: 16,
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,31}$' },
      additionalProperties: PARAM
    }
  },
  not: { required: ['body', 'bodyFile'] }
}

// A weighted mix: each request sent in proportion to its weight, one after another, all judged by the scenario's one expectation.
const MIX = {
  type: 'array',
  minItems: 2,
  maxItems: 16,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['weight', 'request'],
    properties: { weight: { type: 'integer', minimum: 1, maximum: 100 }, request: REQUEST }
  }
}

const EXPECT = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    status: { type: 'integer', minimum: 100, maximum: 599 },
    contentType: { type: 'string', pattern: '^[a-z0-9.+-]+/[a-z0-9.+-]+$' },
    headers: {
      type: 'object',
      maxProperties: 32,
      propertyNames: { pattern: HEADER_NAME },
      additionalProperties: { type: 'string', pattern: '^[\\x20-\\x7e]{0,4096}$' }
    },
    body: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      properties: { text: { type: 'string' }, json: {}, schema: { type: 'object' }, module: { type: 'string', minLength: 1 } }
    }
  }
}

export const APP_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['start', 'scenarios'],
  properties: {
    name: NAME,
    start: {
      type: 'object',
      additionalProperties: false,
      properties: {
        file: { type: 'string', minLength: 1 },
        command: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        cwd: { type: 'string', minLength: 1 },
        env: { type: 'object', propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' }, additionalProperties: { type: 'string' } },
        port: { anyOf: [{ const: 'env' }, { type: 'integer', minimum: 1, maximum: 65535 }] },
        ready: {
          type: 'object',
          additionalProperties: false,
          required: ['path'],
          properties: { path: REQUEST.properties.path, status: EXPECT.properties.status }
        }
      },
      oneOf: [{ required: ['file'] }, { required: ['command'] }]
    },
    install: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    services: {
      type: 'object',
      additionalProperties: false,
      properties: { postgres: SERVICE, redis: SERVICE }
    },
    scenarios: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'expect'],
        properties: {
          name: NAME, summary: { type: 'string' }, waitsOnIo: { type: 'boolean' }, request: REQUEST, mix: MIX, expect: EXPECT
        },
        oneOf: [{ required: ['request'] }, { required: ['mix'] }]
      }
    }
  }
}

/** The files a directory's config may be, in the order they are looked for. */
export const APP_CONFIG_FILES = Object.freeze(['dyno.config.yaml', 'dyno.config.yml', 'dyno.config.json', 'dyno.config.mjs',
  'dyno.config.js'])
