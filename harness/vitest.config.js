import { defineConfig } from 'vitest/config'
import { testReporters } from '../.ci/test-time-reporters.js'

export default defineConfig({
  // Where vitest keeps each file's last duration, which orders the next run's files longest first. `.ci/run` points it at a directory
  // shared by clones (as pnpm's store and cargo's target are), so that a fresh clone starts its longest journeys first and the two
  // workers end together, instead of one finishing a long file alone at the end.
  ...(process.env.DYNO_VITEST_CACHE_DIR ? { cacheDir: process.env.DYNO_VITEST_CACHE_DIR } : {}),
  test: {
    testTimeout: 60_000,
    reporters: testReporters('harness'),
    hookTimeout: 60_000,
    globalSetup: ['./test/support/scratch-tmpdir.js'],
    setupFiles: ['./test/support/timeout-says-what-it-waited-for.js'],
    projects: [
      {
        extends: true,
        // `pnpm test`: what a change usually breaks, in a few minutes. Test files spawn real SUTs and load generators: two cores
        // serve two files at a time.
        test: {
          name: 'parallel',
          include: ['test/**/*.test.js'],
          exclude: ['test/**/*.alone.test.js', 'test/**/*.e2e.test.js'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        // `pnpm test:e2e`: whole journeys that take minutes each (worktrees of two commits, registry installs, counts under
        // valgrind, a real PostgreSQL, Ctrl-C through pnpm), two at a time.
        test: { name: 'e2e', include: ['test/**/*.e2e.test.js'], maxWorkers: 2, sequence: { groupOrder: 1 } }
      },
      {
        extends: true,
        // `pnpm test:e2e` too: tests that judge measured differences run after the others, one at a time, on a machine nothing
        // else in the suite is loading.
        test: { name: 'alone', include: ['test/**/*.alone.test.js'], maxWorkers: 1, sequence: { groupOrder: 2 } }
      }
    ]
  }
})
