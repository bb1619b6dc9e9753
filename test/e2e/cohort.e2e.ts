/**
 * Issue 16, part B: a participant page you can read and a cohort view. A study with results and
 * participant attributes (arm, site) is written into the workspace's database, then, as a researcher:
 * pick measures on a participant's page (the choice is remembered for the study), switch the time axis,
 * follow a point to its recording, save a chart as SVG and PNG (both files are checked: the SVG parses as
 * SVG, the PNG has its signature and size), open the cohort view grouped by arm, add an attribute in the
 * window and import some from a CSV. Both new screens pass axe-core in light and dark, and are shot at
 * 100 % and 200 % zoom (a 1280 × 800 window) with no page scrolling sideways.
 */
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { seedCohortStudy } from '../support/cohort-study';
import { checkA11y, expect, nextFrames, openScreen, shoot, test } from './support/fixtures';

// This machine is shared and loaded: actions and expectations get more time than the defaults.
test.use({ actionTimeout: 45_000 });

/** The saved file's bytes. */
const bytesOf = async (d: Download) => readFileSync((await d.path())!);

const checkSvg = async (page: Page, text: string) => {
  expect(text.startsWith('<?xml')).toBe(true);
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      root: doc.documentElement.nodeName,
      lines: doc.getElementsByTagName('polyline').length,
    };
  }, text);
  expect(parsed).toMatchObject({ error: 0, root: 'svg' });
  expect(parsed.lines).toBeGreaterThan(0);
};

const checkPng = (b: Buffer) => {
  expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(b.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect(b.readUInt32BE(16)).toBeGreaterThan(600);
  expect(b.readUInt32BE(20)).toBeGreaterThan(300);
};

const save = async (page: Page, scope: ReturnType<Page['locator']>, kind: 'SVG' | 'PNG') => {
  const [d] = await Promise.all([
    page.waitForEvent('download'),
    scope
      .getByRole('button', { name: `Save as ${kind}` })
      .first()
      .click(),
  ]);
  expect(d.suggestedFilename()).toMatch(new RegExp(`\\.${kind.toLowerCase()}$`));
  return bytesOf(d);
};

/** At 200 % zoom in a 1280 × 800 window (640 × 400 CSS pixels), the page never scrolls sideways. */
const atZoom200 = async (page: Page, name: string) => {
  await page.setViewportSize({ width: 640, height: 400 });
  // The charts follow the new width (ResizeObserver, then React) within the next frames.
  await nextFrames(page);
  const wide = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const over = [...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > w + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
    return { by: document.documentElement.scrollWidth - w, over };
  });
  expect(wide.by, `${name} scrolls sideways at 200 % (${wide.over.join(', ')})`).toBeLessThanOrEqual(0);
  await shoot(page, `${name}-200`);
  await page.setViewportSize({ width: 1280, height: 800 });
};

test('participant page: pick measures, switch axes, open a point’s recording, save a chart', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const { studyId, participants } = seedCohortStudy(host.home);
  const pid = participants.get('P-002')!;
  await openScreen(page, `/studies/${studyId}/participants/${pid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Participant P-002' })).toBeVisible({
    timeout: 60_000,
  });

  // A few charts of each analysis type by default, not all 37.
  const charts = page.locator('.tgrid figure.tchart');
  await expect(charts.first()).toBeVisible();
  const before = await charts.count();
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThanOrEqual(8);

  // Pick a measure by name; the charts follow, and the choice is kept for the study.
  await page.getByText(/^Measures shown:/).click();
  await page.getByLabel('Find a measure').fill('clarity');
  const clarity = page.getByRole('checkbox', { name: 'Clarity', exact: true });
  await expect(clarity).toBeVisible();
  const wasChecked = await clarity.isChecked();
  await clarity.click();
  await expect(charts).toHaveCount(wasChecked ? before - 1 : before + 1);
  const picked = await charts.count();
  // Stored for the study (cohort.saveChartChoice) before the page is read again.
  await expect
    .poll(async () => {
      const stored = await host.rpc('cohort.chartChoice', { studyId });
      return stored.ok ? (stored.value.measures?.includes('cc_clarity') ?? null) : null;
    })
    .toBe(!wasChecked);
  await page.reload();
  // Generous: this machine is shared and loaded.
  await expect(charts.first()).toBeVisible({ timeout: 60_000 });
  await expect(charts).toHaveCount(picked);

  // Axes: date, visit, days since baseline; every chart shares the axis.
  const axis = page.getByLabel('Time axis');
  await axis.selectOption('visit');
  await expect(page.locator('.tgrid')).toHaveAttribute('data-axis', 'visit');
  await expect(page.getByText(/session’s number in order/)).toBeVisible();
  await axis.selectOption('days');
  await expect(page.locator('.tgrid')).toHaveAttribute('data-axis', 'days');
  // Converted and marginal sessions are marked on the charts (seeded: sessions 3 and 5).
  const first = charts.first();
  await expect(first.locator('.tchart-canvas')).toHaveAttribute('data-markers', /[1-9]/);

  // Save the first chart as SVG and PNG: valid files.
  await checkSvg(page, (await save(page, first, 'SVG')).toString('utf8'));
  checkPng(await save(page, first, 'PNG'));

  await checkA11y(page, 'participant page with picked measures');
  await shoot(page, 'cohort-participant-page');
  await atZoom200(page, 'cohort-participant-page');
  await page.getByLabel('Theme').selectOption('dark');
  await checkA11y(page, 'participant page, dark');
  await shoot(page, 'cohort-participant-page-dark');
  await atZoom200(page, 'cohort-participant-page-dark');
  await page.getByLabel('Theme').selectOption('light');

  // Each point leads to its recording (the chart's table links each date).
  await first.getByText('Values as a table').click();
  await first.locator('table a').first().click();
  await expect(page).toHaveURL(new RegExp(`#/studies/${studyId}/recordings/\\d+$`));
});

test('cohort view: one measure across participants, grouped by an attribute; attributes entered and imported', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const { studyId, participants } = seedCohortStudy(host.home);
  await openScreen(page, `/studies/${studyId}/cohort`);
  await expect(page.getByRole('heading', { level: 1, name: 'Cohort' })).toBeVisible();
  const chart = page.locator('img.cohort-chart');
  await expect(chart).toHaveAttribute('data-participants', '12');
  await expect(chart).toHaveAttribute('data-groups', '1');

  await page.getByLabel('Group by').selectOption('arm');
  await expect(chart).toHaveAttribute('data-groups', '2');
  await expect(page.locator('#cohort-s')).toContainText('active: 6 participants');
  await page.getByLabel('Time axis').selectOption('days');
  await page.getByText('Medians and quartiles as a table').click();
  await expect(page.locator('.cohort-figure table tbody tr').first()).toContainText(/active/);

  await checkSvg(page, (await save(page, page.locator('.cohort-figure'), 'SVG')).toString('utf8'));
  checkPng(await save(page, page.locator('.cohort-figure'), 'PNG'));

  await checkA11y(page, 'cohort view grouped by arm');
  await shoot(page, 'cohort-view');
  await atZoom200(page, 'cohort-view');
  await page.getByLabel('Theme').selectOption('dark');
  await checkA11y(page, 'cohort view, dark');
  await shoot(page, 'cohort-view-dark');
  await atZoom200(page, 'cohort-view-dark');
  await page.getByLabel('Theme').selectOption('light');

  // A CSV import: a new attribute, and a code that is not in the study.
  await page.getByLabel('Import attributes from a CSV file').setInputFiles({
    name: 'attributes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('participant_code,diagnosis\nP-001,PD\nP-002,control\nP-999,PD\n'),
  });
  await expect(page.getByText('Set diagnosis for 2 participants.')).toBeVisible();
  await expect(page.getByText(/Not participants of this study \(left out\): P-999/)).toBeVisible();
  await page.getByLabel('Group by').selectOption('diagnosis');
  await expect(chart).toHaveAttribute('data-groups', '3');

  // An attribute entered on a participant's page reaches the cohort view.
  await openScreen(page, `/studies/${studyId}/participants/${participants.get('P-003')!}`);
  const form = page.getByRole('form', { name: 'Attributes' });
  const keys = form.getByLabel('Attribute');
  await keys.last().fill('cohort');
  await form.getByLabel('Value').last().fill('pilot');
  await form.getByRole('button', { name: 'Save attributes' }).click();
  await expect(form.getByText('Saved.')).toBeVisible();
  await openScreen(page, `/studies/${studyId}/cohort`);
  await page.getByLabel('Group by').selectOption('cohort');
  await expect(chart).toHaveAttribute('data-groups', '2');
});
