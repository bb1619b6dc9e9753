/**
 * The first screen comes with the page (renderer/src/ssr/first-screen.tsx): its heading and
 * form are there before any script has run, React takes them over without redrawing them (no error in
 * the console), and nothing the researcher does before that is lost (renderer/src/lib/early-input.ts).
 * Every script is held back 1.5 s here, so the typing and the press surely come before React.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const takenOver = (page: Page) =>
  page.evaluate(() =>
    Object.keys(document.querySelector('h1') ?? {}).some((k) => k.startsWith('__reactFiber')),
  );

test('typing and a press before React has taken over the set-up screen are kept', async ({
  host,
  browser,
}) => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.route('**/*.js', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.goto(host.url, { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Welcome to Voicescope' })).toBeVisible();
  expect(await takenOver(page), 'the heading came with the page, before React').toBe(false);

  await page.getByLabel('Profile name').fill('Typed before React');
  await page.getByLabel('API version to simulate').selectOption('v1.2');
  await page.getByRole('button', { name: 'Use the sandbox' }).click();
  // The press led where it leads once React has it: the sandbox profile made (v1.2, as chosen), then New study.
  await expect(page.getByRole('heading', { name: 'New study' })).toBeVisible();
  const profiles = await host.rpc('profiles.list', {});
  expect(profiles.ok && profiles.value.map((p) => p.apiVersion)).toEqual(['v1.2']);
  expect(problems).toEqual([]);
  await page.close();
});

test('text typed before React has taken over stays through later renders', async ({ host, browser }) => {
  const page = await browser.newPage();
  await page.route('**/*.js', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.goto(host.url, { waitUntil: 'commit' });
  await page.getByLabel('Profile name').fill('Typed before React');
  await page.getByLabel('API version to simulate').selectOption('v1.2');
  expect(await takenOver(page)).toBe(false);
  await expect.poll(() => takenOver(page)).toBe(true);
  await expect(page.getByLabel('API version to simulate')).toHaveValue('v1.2');
  // A render of the form (another field changes) keeps the text: React holds it in its state.
  await page.getByLabel('API version', { exact: true }).selectOption('v1.2');
  await expect(page.getByLabel('Profile name')).toHaveValue('Typed before React');
  await page.close();
});
