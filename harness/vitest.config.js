import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/support/scratch-tmpdir.js'],
    projects: [
      {
        extends: true,
        // Test files spawn real SUTs and load generators: two cores serve two files at a time.
        test: { name: 'parallel', include: ['test/**/*.test.js'], exclude: ['test/**/*.alone.test.js'], maxWorkers: 2, sequence: { groupOrder: 0 } }
      },
      {
        extends: true,
        // Tests that judge measured differences run after the others, one at a time, on a machine
        // nothing else in the suite is loading.
        test: { name: 'alone', include: ['test/**/*.alone.test.js'], maxWorkers: 1, sequence: { groupOrder: 1 } }
      }
    ]
  }
})
