import { availableParallelism } from 'node:os';

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
  // The security scan of the built app (a build, then Electronegativity parsing 7 MB of bundles: 22 s
  // alone, 61 s beside the window journeys) guards a release, not the edit-test loop.
  'test/unit/electron/electronegativity.test.ts',
] as const;

/**
 * The quick tier's files share one module registry per worker (vitest's `isolate: false`, the
 * `shared-modules` project of vitest.config.ts): loading and transforming the modules a file imports
 * took longer than many files' tests (a handler file imports about 400 modules, 3-7 s; 14 integration
 * files: 46 s of CPU isolated, 22 s shared; docs/testing.md). The files below get fresh modules
 * (`isolated`).
 */
export const SHARED_MODULE_TESTS = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'] as const;
export const OWN_MODULE_TESTS = [
  // They replace a module (`vi.mock`), the clock (`vi.useFakeTimers`), `console`, an environment
  // variable, the time zone or the process's umask.
  'test/unit/electron/main-shell.test.ts',
  'test/unit/electron/preload.test.ts',
  'test/unit/engine/queue-runner.test.ts',
  'test/unit/renderer/rpc-client.test.ts',
  'test/unit/audio/speech-cache.test.ts',
  'test/unit/tests/run-caches.test.ts',
  'test/unit/install-offline.test.ts',
  'test/integration/security/attacks.test.ts',
  'test/integration/db/upgrade-from-180.test.ts',
  // Long or memory-heavy (thousands of property runs, 50 MB recordings, builds, a timing threshold):
  // module loading is a small part of their time, and sharing a worker with them slowed the files after
  // them (tolerant-reading's tests: 60 s isolated, 200 s after the others in one worker).
  'test/unit/api/client-properties.test.ts',
  'test/unit/api/tolerant-reading.test.ts',
  'test/unit/audio/speech-estimate.test.ts',
  'test/unit/audio/convert-wav.test.ts',
  'test/unit/audio/audio-facts.test.ts',
  'test/unit/sandbox/simulate.test.ts',
  'test/unit/sandbox/sandbox-parts.test.ts',
  'test/unit/export/time.test.ts',
  'test/unit/packaging.test.ts',
] as const;

/**
 * The suites that run a second time on an in-process PostgreSQL (PGlite, `VOICESCOPE_TEST_ENGINE=pglite`,
 * test/support/test-engine.ts), so the same assertions hold on both engines: the handlers through the
 * router, the services, curation, the study design, the exports, the engine's batches and end states, the
 * import, the repositories, the privacy acts and the audit log. A test's store is a PGlite its worker
 * already holds, emptied (test/support/pglite.ts). `npm test` runs the repository suites, which write
 * the SQL each dialect differs in (`main/db/store/dialect.ts`) most directly, so a dialect mistake shows
 * in the edit-test loop (`ENGINE_SUITES`, the `pglite` project of vitest.config.ts); every suite above
 * them, which runs that SQL again through its services and handlers and already runs on SQLite in
 * `npm test`, runs on PGlite in `npm run test:slow` (`LONG_ENGINE_SUITES`, the `pglite-long` project of
 * vitest.slow.config.ts): 103 s of the quick tier's 1,051 s of worker time on CI (2026-11-29), where
 * each file ran a second time on the engine one run already covered. What needs several connections
 * or a real server (locks, TLS, kills, the command line, the soak) runs on PostgreSQL 15 in the slow
 * tier and in CI.
 */
export const ENGINE_SUITES = [
  'test/integration/design/visit-repos-on-store.test.ts',
  'test/integration/db/duplicates.test.ts',
  'test/integration/db/usage-by-study.test.ts',
  'test/integration/db/adversarial-outcomes.test.ts',
  'test/integration/db/upload-protocol.test.ts',
  'test/integration/db/upload-claims.test.ts',
  'test/integration/engine/workstation-claims.test.ts',
  'test/integration/db/json-columns.test.ts',
] as const;
export const LONG_ENGINE_SUITES = [
  'test/integration/rpc/studies.test.ts',
  'test/integration/rpc/profiles.test.ts',
  'test/integration/rpc/receipt-differences.test.ts',
  'test/integration/design/visits-export.test.ts',
  'test/integration/design/overdue.test.ts',
  'test/integration/curation/participant-status-act.test.ts',
  'test/integration/rpc/recording-detail.test.ts',
  'test/integration/rpc/cohort.test.ts',
  'test/integration/rpc/change.test.ts',
  'test/integration/curation/curation.test.ts',
  'test/integration/curation/curation-effects.test.ts',
  'test/integration/curation/participant-merge.test.ts',
  'test/integration/curation/needs-you-dismiss.test.ts',
  'test/integration/curation/duplicates-elsewhere.test.ts',
  'test/integration/rpc/curation.test.ts',
  'test/integration/export/behaviour.test.ts',
  'test/integration/export/codebook.test.ts',
  'test/integration/export/summary-timeline.test.ts',
  'test/integration/export/audit.test.ts',
  'test/integration/export/local-blocks.test.ts',
  'test/integration/import/reimport.test.ts',
  'test/integration/import/borderline-held.test.ts',
  'test/integration/privacy/key-audit.test.ts',
  'test/integration/privacy/study-data.test.ts',
  'test/integration/export/loose-answers.test.ts',
  'test/integration/rpc/participants.test.ts',
  'test/integration/engine/batch-to-results.test.ts',
  'test/integration/export/interpreters.test.ts',
  'test/integration/rpc/imports.test.ts',
  'test/integration/export/workbook.test.ts',
  'test/integration/rpc/timeline.test.ts',
  'test/integration/security/audit-log.test.ts',
  'test/integration/export/local-only.test.ts',
  'test/integration/engine/end-states.test.ts',
  'test/integration/export/change-reference.test.ts',
  'test/integration/export/round-trip.test.ts',
  'test/integration/export/spss-stata.test.ts',
] as const;

/**
 * The command-line journeys that run a second time on a study database on a real PostgreSQL 15 server
 * (the `cli-postgres` project of vitest.slow.config.ts; test/support/cli-workspace.ts). Not here: the
 * database choice and the server journey (PostgreSQL's own tests already), the interrupted import (a kill
 * test that starts its commands itself, not through the shared workspace), the attributes (the journey
 * seeds its study by writing the study file), and the end states (the longest journey, 68 s on SQLite
 * and 206 s on PostgreSQL under load: its engine outcomes run on PGlite in the end-states suite).
 */
export const CLI_ENGINE_SUITES = [
  'test/integration/cli/voicescope-audit.test.ts',
  'test/integration/cli/voicescope-cli.test.ts',
  'test/integration/cli/voicescope-export.test.ts',
  'test/integration/cli/voicescope-curate.test.ts',
  'test/integration/cli/voicescope-curate-merge.test.ts',
  'test/integration/cli/voicescope-curate-dismiss.test.ts',
  'test/integration/cli/voicescope-visits.test.ts',
  'test/integration/cli/voicescope-signals.test.ts',
  'test/integration/cli/voicescope-reliability.test.ts',
] as const;

/**
 * The property files of the API client run in both tiers: in `npm test` at a fifth of their counts
 * (FC_RUNS_SCALE=0.2: 2,000 answers read per version instead of 10,000, 100 through the socket instead
 * of 500; every kind of answer and every flag still met), in `npm run test:slow` at their full counts.
 * `FC_RUNS_SCALE=1 npm test` runs the full counts in the quick tier too.
 */
export const PROPERTY_TESTS = [
  'test/unit/api/tolerant-reading.test.ts',
  'test/unit/api/client-properties.test.ts',
] as const;
export const QUICK_PROPERTY_SCALE = '0.2';

/**
 * How many test files run at once in `npm test`. `TEST_WORKERS=<n>` sets both vitest's and Playwright's
 * number (`TEST_WORKERS=1 npm test`: one file at a time, as before 2026-11-26 r8). Without it, vitest runs
 * two files at a time (or one fewer than the cores on a larger machine) and Playwright one.
 * Files do not collide (each has its own temporary workspace, database, free ports and host, each
 * screenshot its own name). vitest's second worker took the quick tier from 446 s to 310 s on the quiet
 * 2-core machine (docs/testing.md "Workers"); a second Playwright worker saved almost nothing there and
 * ran the participants journey out of time (two Chromiums and two hosts on two cores), so it stays opt-in.
 */
const asked = Number(process.env['TEST_WORKERS']);
export const TEST_WORKERS: number | undefined = Number.isInteger(asked) && asked > 0 ? asked : undefined;
export const VITEST_WORKERS: number = TEST_WORKERS ?? Math.max(2, availableParallelism() - 1);
export const E2E_WORKERS: number = TEST_WORKERS ?? 1;
