/**
 * 200 % zoom (issue 16): in a 1280 x 800 window at 200 % every screen is 640 x 400 CSS pixels. Every
 * screen reflows (the sidebar becomes a menu above the page), tables scroll inside themselves, and no
 * page scrolls sideways: document.scrollingElement.scrollWidth <= clientWidth on each. Screenshots at
 * 200 %: the whole page in light, the window's view in dark.
 */
import type { Page } from '@playwright/test';
import { paths } from '../../renderer/src/app/paths';
import { expect, openScreen, shoot, test } from './support/fixtures';
import { seedStudyWithResults } from './support/study-with-results';

/** What sticks out past the page's right edge (for the failure message). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const doc = document.scrollingElement!;
    const wide: string[] = [];
    if (doc.scrollWidth > doc.clientWidth)
      for (const el of document.querySelectorAll<HTMLElement>('main *, nav *')) {
        const r = el.getBoundingClientRect();
        if (r.right > doc.clientWidth + 1 && wide.length < 5)
          wide.push(`${el.tagName.toLowerCase()}.${el.className} (${Math.round(r.right)} px)`);
      }
    return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, wide };
  });

/**
 * Opens the next screen the way the window's links do (the address after #, no reload): the data do not
 * change between screens, and reloading the window for each of 18 screens was two fifths of this test's
 * traced time (docs/testing.md). The previous screen's heading is marked and must be gone before the new
 * one counts.
 */
const goTo = async (page: Page, hash: string) => {
  await page
    .locator('main h1')
    .first()
    .evaluate((h) => h.setAttribute('data-left', ''));
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await expect(page.locator('main h1[data-left]')).toHaveCount(0);
};

test('every screen reflows at 200 % zoom in a 1280 x 800 window: no page scrolls sideways', async ({
  page,
  host,
}) => {
  test.setTimeout(600_000);
  const seeded = await seedStudyWithResults(host, { codes: ['P-001', 'P-002'], sessions: 2 });
  const s = paths.study(seeded.studyId);
  const rows = await host.rpc('recordings.page', {
    studyId: seeded.studyId,
    sort: 'id',
    dir: 'asc',
    offset: 0,
    limit: 1,
  });
  const parts = await host.rpc('participants.page', {
    studyId: seeded.studyId,
    sort: 'code',
    dir: 'asc',
    offset: 0,
    limit: 1,
  });
  if (!rows.ok || !parts.ok) throw new Error('seeded study unreadable');
  const screens: [string, string][] = [
    ['studies', paths.studies],
    ['overview', s.overview],
    ['participants', s.participants],
    ['participant', s.participant(parts.value.rows[0]!.id)],
    ['cohort', s.cohort],
    ['design', s.design],
    ['change', s.change],
    ['recordings', s.recordings],
    ['recording', s.recording(rows.value.rows[0]!.id)],
    ['import', s.import],
    ['batches', s.batches],
    ['batch', s.batch(seeded.batchId)],
    ['export', s.export],
    ['data', s.data],
    ['usage', paths.usage],
    ['settings', paths.settings],
    ['privacy', paths.privacy],
    ['audit', paths.audit],
  ];
  // 1280 x 800 at 200 %: 640 x 400 CSS pixels, drawn at twice the density.
  await page.setViewportSize({ width: 640, height: 400 });
  const failures: string[] = [];
  for (const [i, [name, hash]] of screens.entries()) {
    if (i === 0) await openScreen(page, hash);
    else await goTo(page, hash);
    await expect(page.locator('main h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The screen's data have come over the bridge (a WebSocket, which the network's idle does not see).
    await expect(page.locator('main .loading')).toHaveCount(0);
    const o = await overflow(page);
    console.log(`200 % ${name}: scrollWidth ${o.scrollWidth}, clientWidth ${o.clientWidth}`);
    if (o.scrollWidth > o.clientWidth)
      failures.push(`${name}: ${o.scrollWidth} > ${o.clientWidth}: ${o.wide.join(', ')}`);
    // Every screen, light and dark, to be looked at (test-results/screenshots/zoom200-*): the whole page
    // in light (the reflow is the same in both themes), what the window shows in dark (the colours).
    await shoot(page, `zoom200-${name}-light`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, `zoom200-${name}-dark`, { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  expect(failures, 'pages that scroll sideways at 200 %').toEqual([]);

  // The menu: collapsed above the page, opened with its button, and it closes on choosing a screen.
  await openScreen(page, s.overview);
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('link', { name: 'Recordings' })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('link', { name: 'Recordings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Recordings/ })).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
});
