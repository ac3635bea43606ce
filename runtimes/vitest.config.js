import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // A runtime's first start reads a ~100 MB binary from disk.
    testTimeout: 60_000
  }
})
