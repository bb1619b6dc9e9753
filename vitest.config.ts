import { defineConfig } from 'vitest/config';
import { SLOW_TESTS, TEST_WORKERS } from './test/tiers';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    // The long journeys (test/tiers.ts) run in `npm run test:slow`, which CI runs after `npm test`.
    exclude: ['**/node_modules/**', ...SLOW_TESTS],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default (one file at a time on 2 cores) unless TEST_WORKERS says (test/tiers.ts).
    ...(TEST_WORKERS !== undefined ? { maxWorkers: TEST_WORKERS } : {}),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
