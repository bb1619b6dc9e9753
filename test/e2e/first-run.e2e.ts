/**
 * First run, as a researcher meets it: choose the built-in sandbox (labelled simulated) or connect a
 * service with a connection test (ping and usage) that explains a wrong key in plain words; then create
 * a study. Settings and usage screens are checked on the way.
 */
import { DEMO_API_KEY } from '../../main/sandbox/config';
import { startSandbox } from '../../main/sandbox/server';
import { checkA11y, expect, openScreen, shoot, test } from './support/fixtures';

// These journeys start on the window's first screen.
test.use({ firstScreen: true });

test('first run with the built-in sandbox: everything it touches says simulated', async ({ page }) => {
  await expect(page.getByRole('heading', { name: 'Welcome to Voicescope' })).toBeVisible();
  await checkA11y(page, 'first run');
  await shoot(page, '01-first-run');

  await page.getByRole('button', { name: 'Use the sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'New study' })).toBeVisible();
  await expect(page.getByText('Results of this study will be simulated.')).toBeVisible();
  await page.getByLabel('Study name').fill('Pilot 2026');
  await page.getByLabel('Days between sessions').fill('14');
  await page.getByRole('button', { name: 'Create study' }).click();

  await expect(page.getByRole('heading', { name: /Pilot 2026/ })).toBeVisible();
  await expect(page.getByText('Simulated results (sandbox)')).toBeVisible();
  await expect(page.getByText('sessions expected every 14 days')).toBeVisible();
  await checkA11y(page, 'study overview (empty)');

  await page.getByRole('link', { name: 'Studies', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Pilot 2026' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Pilot 2026/ }).getByText('Simulated')).toBeVisible();
  await checkA11y(page, 'studies');
  await shoot(page, '02-studies');

  await page.getByRole('link', { name: 'Usage and credits' }).click();
  await page.getByRole('button', { name: 'Read usage now' }).click();
  await expect(page.getByText('Uploads remaining', { exact: true })).toBeVisible();
  await expect(page.getByText(/As the service reported at/).getByText('Simulated')).toBeVisible();
  // Readings within one minute with one value are one point with its value, never a line "X to X".
  await expect(page.locator('figure.history')).toBeVisible();
  const history = (await page.locator('figure.history').textContent())!;
  const span = /Uploads remaining, (.+?) to (.+)$/.exec(history.trim());
  if (span) expect(span[1], 'a usage line from a time to the same time').not.toBe(span[2]);
  else expect(history).toMatch(/One reading so far/);
  await checkA11y(page, 'usage');
  await shoot(page, '03-usage');

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Service profiles' })).toBeVisible();
  await expect(page.getByLabel('How the sandbox behaves')).toBeVisible();
  await checkA11y(page, 'settings');
  await shoot(page, '04-settings');
});

test('connecting a service: the connection test names a wrong key and what to do, then succeeds', async ({
  page,
}) => {
  const service = await startSandbox({ port: 0 });
  try {
    await page.getByLabel('Service address').fill(service.url);
    await page.getByLabel('API key').fill('not-the-right-key');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'The connection test failed' });
    await expect(failure).toContainText('The service did not accept the API key.');
    await expect(failure).toContainText('paste a fresh key');
    await shoot(page, '05-connect-wrong-key');

    await page.getByLabel('API key').fill(DEMO_API_KEY);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText('Connected')).toBeVisible();
    await expect(page.getByText(/credits left/)).toBeVisible();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('heading', { name: 'New study' })).toBeVisible();
    await expect(page.getByLabel('Service profile')).toContainText('Lab service (API v1.3)');
    await expect(page.getByText('Results of this study will be simulated.')).toHaveCount(0);
  } finally {
    await service.close();
  }
});

test('keyboard only: skip link, focus moves to each page heading, visible focus', async ({ page, host }) => {
  await host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' });
  await openScreen(page, '/studies');
  await expect(page.getByRole('heading', { name: 'Studies' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'New study' })).toBeFocused();
  const outline = await page
    .getByRole('button', { name: 'New study' })
    .evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'New study' })).toBeFocused();
});

test('readable at 125 % zoom and in the dark theme', async ({ page, host }) => {
  const profile = await host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' });
  if (!profile.ok) throw new Error(profile.error.message);
  await host.rpc('studies.create', { name: 'Zoom study', profileId: profile.value.id });
  await openScreen(page, '/studies');
  await page.getByLabel('Theme').selectOption('dark');
  await page.evaluate(() => {
    document.body.style.zoom = '1.25';
  });
  await page.getByRole('link', { name: 'Zoom study' }).click();
  await expect(page.getByRole('heading', { name: /Zoom study/ })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'no horizontal scrolling at 125 %').toBeLessThanOrEqual(0);
  await checkA11y(page, 'study overview, dark, 125 %');
  await shoot(page, '06-dark-125');
});
