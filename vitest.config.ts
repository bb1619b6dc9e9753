import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/tiers';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    // The long journeys (test/tiers.ts) run in `npm run test:slow`, which CI runs after `npm test`.
    exclude: ['**/node_modules/**', ...SLOW_TESTS],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time at least (vitest's default is one fewer than the cores: one on a 2-core
    // machine). Every file has its own temporary workspace, database and ports; docs/testing.md.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
