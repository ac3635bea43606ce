// @ts-check
// The documented shapes of the files `dyno compare` writes for other tools, to check its output against.
import { Ajv } from 'ajv'

// Bencher Metric Format, as its reference documents it (bencher.dev/docs/reference/bencher-metric-format):
// benchmark name → measure (name or slug) → { value, lower_value?, upper_value? }.
const BMF_SCHEMA = {
  $id: 'https://bencher.dev/bmf.json',
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  patternProperties: {
    '.+': {
      type: 'object',
      patternProperties: {
        '.+': {
          type: 'object',
          properties: { value: { type: 'number' }, lower_value: { type: 'number' }, upper_value: { type: 'number' } },
          required: ['value']
        }
      }
    }
  }
}
// github-action-benchmark's custom tools (customBiggerIsBetter / customSmallerIsBetter) read an array
// of its BenchmarkResult: { name, value, unit, range?, extra? } (src/extract.ts).
const GAB_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'value', 'unit'],
    additionalProperties: false,
    properties: {
      name: { type: 'string' },
      value: { type: 'number' },
      unit: { type: 'string' },
      range: { type: 'string' },
      extra: { type: 'string' }
    }
  }
}
const ajv = new Ajv({ allErrors: true, strict: true })
export const validBmf = ajv.compile(BMF_SCHEMA)
export const validGab = ajv.compile(GAB_SCHEMA)
