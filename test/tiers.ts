/**
 * Which tests run where, written once for both vitest configurations: `npm test` runs the quick tier
 * (vitest.config.ts), `npm run test:slow` the long journeys (vitest.slow.config.ts), which CI runs after
 * `npm test` (.ci/run). A long journey is a file named `*.slow.test.ts`, or one of the journeys through
 * the `voicescope` command line (each command a process of its own: 10-60 s a file) and the engine's
 * 200-recording study batch.
 */
export const SLOW_TESTS = [
  'test/**/*.slow.test.ts',
  'test/integration/cli/voicescope-*.test.ts',
  'test/integration/engine/study-batch.test.ts',
] as const;

/**
 * How many test files run at once in `npm test`, when TEST_WORKERS says (`TEST_WORKERS=2 npm test`);
 * otherwise vitest's default (one fewer than the cores: one on a 2-core machine) and one for Playwright.
 * Files do not collide (each has its own temporary workspace, database, free ports and host, each
 * screenshot its own name), but with two Playwright workers on the shared 2-core machine under a load of
 * 20-25, 10 of 21 end-to-end tests ran out of time (41.6 min for the suite): two stays opt-in until runs
 * on a quieter machine show it clean (docs/testing.md).
 */
const asked = Number(process.env['TEST_WORKERS']);
export const TEST_WORKERS: number | undefined = Number.isInteger(asked) && asked > 0 ? asked : undefined;
