/**
 * 100 % and 200 % zoom: a 1280 x 800 window, and the same at 200 %, where every screen is
 * 640 x 400 CSS pixels. Every screen reflows (at 200 % the sidebar becomes a menu above the page), tables
 * scroll inside themselves, no page scrolls sideways (document.scrollingElement.scrollWidth <=
 * clientWidth on each) and nothing sticks out of its card or section or is cut short in a button. The
 * study has a visit schedule (Baseline, Week 1, Week 2) and a withdrawn participant, so the design,
 * completeness and visit screens show what a real study shows. Screenshots at both sizes: the whole
 * page in light, the window's view in dark.
 */
import type { Page } from '@playwright/test';
import { paths } from '../../renderer/src/app/paths';
import { expect, openScreen, shoot, test } from './support/fixtures';
import { firstRecordingId, seedStudyWithResults } from './support/study-with-results';

/**
 * What sticks out past the page's right edge (for the failure message), and what sticks out of its card
 * or section (outside any box that scrolls sideways by itself) or is cut short inside a button.
 */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const doc = document.scrollingElement!;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} “${(el.textContent ?? '').trim().slice(0, 24)}”`;
    const wide: string[] = [];
    if (doc.scrollWidth > doc.clientWidth)
      for (const el of document.querySelectorAll<HTMLElement>('main *, nav *')) {
        const r = el.getBoundingClientRect();
        if (r.right > doc.clientWidth + 1 && wide.length < 5)
          wide.push(`${name(el)} (${Math.round(r.right)} px)`);
      }
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const outOfCard: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('main .section *, main .card *')) {
      if (outOfCard.length >= 5) break;
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      let box = el.parentElement;
      let inScroller = false;
      while (box && !box.matches('.section, .card')) {
        if (scrolls(box)) inScroller = true;
        box = box.parentElement;
      }
      if (inScroller || !box) continue;
      if (r.right > box.getBoundingClientRect().right + 1)
        outOfCard.push(
          `${name(el)} leaves its ${box.className.split(' ')[0]} by ${Math.round(r.right - box.getBoundingClientRect().right)} px`,
        );
    }
    const cut = [...document.querySelectorAll<HTMLElement>('main button, main a.button')]
      .filter((b) => b.offsetWidth > 0 && b.scrollWidth > b.clientWidth + 1)
      .slice(0, 5)
      .map((b) => `${name(b)} cut (${b.scrollWidth} > ${b.clientWidth} px)`);
    return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, wide, outOfCard, cut };
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

test('every screen fits a 1280 x 800 window at 100 % and 200 % zoom: no page scrolls sideways, nothing leaves its card', async ({
  page,
  host,
}) => {
  test.setTimeout(900_000);
  const seeded = await seedStudyWithResults(host, {
    codes: ['P-001', 'P-002', 'P-003'],
    schedule: { visits: ['Baseline', 'Week 1', 'Week 2'], withdrawn: 'P-003' },
  });
  const s = paths.study(seeded.studyId);
  const recordingId = await firstRecordingId(host, seeded.studyId);
  const parts = await host.rpc('participants.page', {
    studyId: seeded.studyId,
    sort: 'code',
    dir: 'asc',
    offset: 0,
    limit: 1,
  });
  if (!parts.ok) throw new Error('seeded study unreadable');
  const screens: [string, string][] = [
    ['studies', paths.studies],
    ['overview', s.overview],
    ['participants', s.participants],
    ['participant', s.participant(parts.value.rows[0]!.id)],
    ['cohort', s.cohort],
    ['design', s.design],
    ['change', s.change],
    ['recordings', s.recordings],
    ['recording', s.recording(recordingId)],
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
  const failures: string[] = [];
  // 1280 x 800 at 100 %, then at 200 %: 640 x 400 CSS pixels, drawn at twice the density.
  for (const [zoom, size] of [
    ['100', { width: 1280, height: 800 }],
    ['200', { width: 640, height: 400 }],
  ] as const) {
    await page.setViewportSize(size);
    for (const [i, [name, hash]] of screens.entries()) {
      if (i === 0 && zoom === '100') await openScreen(page, hash);
      else await goTo(page, hash);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      // The screen's data have come over the bridge (a WebSocket, which the network's idle does not see).
      await expect(page.locator('main .loading')).toHaveCount(0);
      // The design screen's participant: open their status and visits, as a researcher checks them.
      if (name === 'design') await page.getByRole('button', { name: 'Status and visits' }).first().click();
      const o = await overflow(page);
      console.log(`${zoom} % ${name}: scrollWidth ${o.scrollWidth}, clientWidth ${o.clientWidth}`);
      if (o.scrollWidth > o.clientWidth)
        failures.push(`${zoom} % ${name}: ${o.scrollWidth} > ${o.clientWidth}: ${o.wide.join(', ')}`);
      if (o.outOfCard.length) failures.push(`${zoom} % ${name}: ${o.outOfCard.join('; ')}`);
      if (o.cut.length) failures.push(`${zoom} % ${name}: ${o.cut.join('; ')}`);
      // Every screen, light and dark, to be looked at (test-results/screenshots/zoom<100|200>-*): the
      // whole page in light (the reflow is the same in both themes), what the window shows in dark.
      await shoot(page, `zoom${zoom}-${name}-light`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await shoot(page, `zoom${zoom}-${name}-dark`, { fullPage: false });
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
  expect(failures, 'pages that scroll sideways or leave their cards at 100 % or 200 %').toEqual([]);
  await page.setViewportSize({ width: 640, height: 400 });

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
