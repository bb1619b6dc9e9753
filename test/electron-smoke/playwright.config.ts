/**
 * The desktop app itself, through Playwright's Electron launcher: only where an Electron binary is
 * installed (never on our CI machines, whose installer cannot download it; there the test skips and
 * says so). Run: npx playwright test -c test/electron-smoke/playwright.config.ts
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.smoke.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '../../test-results/electron-smoke',
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
