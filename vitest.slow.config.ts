/**
 * The long journeys (`npm run test:slow`): whole-engine kill and restart, fault storms, real storage
 * failures, the interrupted-import kill test and 50 odd answers through the command line. Each takes
 * 20-90 s; they run after `npm test` in CI (.ci/run), one file at a time so their timing is not squeezed.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.slow.test.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
