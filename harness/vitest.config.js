import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // Test files spawn real SUTs and load generators: two cores serve two files at a time.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
