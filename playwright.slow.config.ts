/**
 * The long window journeys of `npm run test:slow` (`test/e2e/*.slow.e2e.ts`, e.g. the 12-week study): the
 * same browser, fixtures and reporters as playwright.config.ts, kept out of `npm test`
 * for its time.
 */
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testMatch: '**/*.slow.e2e.ts',
  testIgnore: [],
  outputDir: 'test-results/e2e-slow',
});
