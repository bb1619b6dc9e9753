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
