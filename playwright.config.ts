/**
 * End-to-end tests of the workstation in browser mode: Debian's Chromium (never a downloaded browser),
 * each test with its own node host, workspace and built-in sandbox (test/e2e/support/fixtures.ts).
 * Screenshots of the main screens are saved under test-results/screenshots/.
 */
import { defineConfig } from '@playwright/test';
import { E2E_WORKERS } from './test/tiers';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  // The long window journeys (`*.slow.e2e.ts`) run in `npm run test:slow` (playwright.slow.config.ts).
  testIgnore: '**/*.slow.e2e.ts',
  globalSetup: './test/e2e/support/global-setup.ts',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // One file at a time unless TEST_WORKERS says more (test/tiers.ts, docs/testing.md): each test has its
  // own host process, free port, workspace and sandbox (support/fixtures.ts), each screenshot its own name.
  workers: E2E_WORKERS,
  retries: 0,
  reporter: [['list'], ['./test/e2e/support/summary-reporter.ts']],
  outputDir: 'test-results/e2e',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    viewport: { width: 1360, height: 900 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
