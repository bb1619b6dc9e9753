/**
 * The desktop app as built (scripts/build.mjs --electron), launched with Playwright's `_electron`:
 * the window is app://app with the security settings in force, the page sees neither Node nor
 * Electron (only `window.voicescope` with invoke and on), navigation away is blocked, and the first-run
 * journey of the browser-mode tests works the same over IPC. Skips, saying why, without a binary.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** The binary the `electron` package's installer puts in dist/ (path.txt names it), when it could download it. */
const electronBinary = (): string | null => {
  try {
    const bin = join(
      ROOT,
      'node_modules',
      'electron',
      'dist',
      readFileSync(join(ROOT, 'node_modules', 'electron', 'path.txt'), 'utf8').trim(),
    );
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
};

const binary = electronBinary();

test.skip(
  binary === null,
  'No Electron binary is installed here (its installer downloads it from GitHub, which this machine cannot reach). ' +
    'On a machine that can: npm ci (without ELECTRON_SKIP_BINARY_DOWNLOAD), then npx playwright test -c test/electron-smoke/playwright.config.ts',
);

test('the desktop app: secure window, no Node in the page, first run over IPC', async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--electron'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const home = mkdtempSync(join(tmpdir(), 'vs-electron-'));
  const app = await electron.launch({
    executablePath: binary!,
    args: [join(ROOT, 'out', 'main', 'main.cjs')],
    env: { ...process.env, VOICESCOPE_HOME: join(home, 'workspace') },
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByRole('heading', { name: 'Welcome to Voicescope' })).toBeVisible();
    expect(page.url()).toMatch(/^app:\/\/app\/index\.html/);

    // The page has the bridge and nothing else of the main process.
    expect(
      await page.evaluate(() => {
        const g = globalThis as Record<string, unknown>;
        return {
          require: typeof g['require'],
          process: typeof g['process'],
          bridge: Object.keys(g['voicescope'] as object).sort(),
        };
      }),
    ).toEqual({ require: 'undefined', process: 'undefined', bridge: ['invoke', 'on'] });
    // New windows are denied.
    expect(await page.evaluate(() => window.open('https://example.org/') === null)).toBe(true);
    expect(app.windows()).toHaveLength(1);

    // Leaving the app is blocked; the window stays on app://app.
    await page
      .evaluate(() => {
        location.href = 'https://example.org/';
      })
      .catch(() => {});
    await page.waitForTimeout(500);
    expect(page.url()).toMatch(/^app:\/\/app\//);

    // The first-run journey of the browser-mode tests, over IPC. On Linux without a keyring, saving the
    // sandbox's (public) demo key asks first; the smoke test answers "save" for the researcher.
    await app.evaluate(({ dialog }) => {
      dialog.showMessageBoxSync = () => 1;
    });
    await page.getByRole('button', { name: 'Use the sandbox' }).click();
    await page.getByLabel('Study name').fill('Pilot 2026');
    await page.getByRole('button', { name: 'Create study' }).click();
    await expect(page.getByRole('heading', { name: /Pilot 2026/ })).toBeVisible();
    await expect(page.getByText('Simulated results (sandbox)')).toBeVisible();
  } finally {
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
});
