import { defineConfig } from 'vitest/config'
import { testReporters } from '../.ci/test-time-reporters.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    reporters: testReporters('runtimes'),
    // A runtime's first start reads a ~100 MB binary from disk.
    testTimeout: 60_000
  }
})
