// @ts-check
import { expect, it } from 'vitest'
import { RUNTIME_NAMES, resolveRuntime } from '../src/index.js'

it('refuses a name it does not know, naming it and every known one', () => {
  expect(() => resolveRuntime('node@18')).toThrow(`unknown runtime \`node@18\`; known runtimes: ${RUNTIME_NAMES.join(', ')}`)
  expect(() => resolveRuntime('toString')).toThrow('unknown runtime `toString`')
})
