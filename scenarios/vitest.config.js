import { defineConfig } from 'vitest/config'
import { testReporters } from '../.ci/test-time-reporters.js'

export default defineConfig({ test: { include: ['test/**/*.test.js'], reporters: testReporters('scenarios') } })
