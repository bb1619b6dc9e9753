/**
 * A first study as a researcher lives it: a schedule of Baseline, Week 1 and Week 2, three
 * participants, one withdrawn, every recording analysed and measured locally. What is shown must say
 * who is who, in the schedule's words, once. A long journey (the whole study, then the local measures
 * of all nine recordings): `npm run test:slow`.
 */
import { paths } from '../../renderer/src/app/paths';
import { expect, openScreen, shoot, test, type Host } from './support/fixtures';
import { firstRecordingId, seedStudyWithResults } from './support/study-with-results';

test.use({ actionTimeout: 45_000 });

/** Waits until every recording of the study has its local measures (at most three minutes). */
const localMeasuresDone = async (host: Host, studyId: number): Promise<void> => {
  const page = await host.rpc('recordings.page', {
    studyId,
    filter: 'all',
    sort: 'id',
    dir: 'asc',
    offset: 0,
    limit: 100,
  });
  if (!page.ok) throw new Error(page.error.message);
  const deadline = Date.now() + 180_000;
  for (const r of page.value.rows) {
    for (;;) {
      const m = await host.rpc('acoustics.recording', { recordingId: r.id });
      if (m.ok && m.value !== null) break;
      if (Date.now() > deadline) throw new Error(`recording ${r.id} not measured locally after 3 minutes`);
      await new Promise((done) => setTimeout(done, 1_000));
    }
  }
};

test('cohort, batch, recording, audit and service name read as the study is', async ({ page, host }) => {
  test.setTimeout(400_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const seeded = await seedStudyWithResults(host, {
    name: 'Pilot PD',
    codes: ['P-001', 'P-002', 'P-003'],
    schedule: { visits: ['Baseline', 'Week 1', 'Week 2'], withdrawn: 'P-003' },
  });
  const s = paths.study(seeded.studyId);

  // The cohort: the schedule's visit names, n per visit, each line named on focus, a table per participant.
  await openScreen(page, s.cohort);
  await expect(page.locator('img.cohort-chart')).toHaveAttribute('data-participants', '3');
  const measure = page.getByLabel('Measure');
  await expect(measure.locator('option', { hasText: /^Speech rate \(Parkinson/ })).toHaveCount(1);
  await expect(measure.locator('option', { hasText: /^Speech rate \(Alzheimer/ })).toHaveCount(1);
  await expect(measure.locator('optgroup[label^="Computed here"] option').first()).toBeAttached();
  await page.getByText('Medians and quartiles as a table').click();
  const medians = page.locator('.cohort-figure table').first();
  await expect(medians).toContainText('Baseline');
  await expect(medians).toContainText('Week 2');
  await expect(medians).not.toContainText('Visit 1');
  const line = page.locator('.cohort-line[data-code="P-002"]');
  await line.focus();
  await expect(line.locator('.cohort-line-name')).toBeVisible();
  await expect(line).toHaveAttribute('aria-label', /^P-002: /);
  await page.getByText('Each participant’s values as a table').click();
  const each = page.locator('.cohort-participants table');
  await expect(each.locator('tbody tr')).toHaveCount(3);
  await expect(each.locator('thead')).toContainText('Week 1');
  expect(decodeURIComponent((await page.locator('img.cohort-chart').getAttribute('src'))!)).toContain('n=3');
  // P-003 withdrew on the day of Week 1: their Week 2 value is left out unless counted.
  const week2 = medians.locator('tr', { hasText: 'Week 2' }).first().locator('td').nth(1);
  await expect(week2).toHaveText('2');
  const late = page.getByRole('checkbox', {
    name: /Count the value recorded after a participant’s withdrawal/,
  });
  await late.check();
  await expect(week2).toHaveText('3');
  await late.uncheck();
  await expect(week2).toHaveText('2');
  await shoot(page, 'first-study-cohort');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'first-study-cohort-dark', { fullPage: false });
  await page.emulateMedia({ colorScheme: 'light' });

  // A measure computed here, named with its analysis, drawn on the cohort chart once the recordings are
  // measured (in the background after the import; waited for here through the host).
  await localMeasuresDone(host, seeded.studyId);
  await openScreen(page, s.cohort);
  await measure.selectOption({ label: 'Mean F0, computed here' });
  await expect(
    measure.locator('optgroup[label^="Computed here"] option', { hasText: 'Mean F0' }),
  ).toHaveCount(1);
  await expect(page.locator('img.cohort-chart')).toHaveAttribute('data-participants', '3');
  expect(decodeURIComponent((await page.locator('img.cohort-chart').getAttribute('src'))!)).toContain(
    'Mean F0',
  );

  // The baseline comes from the schedule (the visit before Week 1), and a k chosen is the study's.
  await openScreen(page, s.participant(seeded.participants.get('P-001')!));
  const k = page.getByLabel('Baseline sessions (for the study)');
  await expect(k).toHaveValue('1');
  await expect(page.getByText('Baseline: the session before Week 1 (from the schedule)')).toBeVisible();
  await k.fill('2');
  await expect(page.getByText('Baseline: the first 2 sessions (set for this study)')).toBeVisible();
  await openScreen(page, s.participant(seeded.participants.get('P-002')!));
  await expect(page.getByLabel('Baseline sessions (for the study)')).toHaveValue('2');
  await openScreen(page, s.change);
  await page.getByRole('button', { name: 'Back to the schedule’s (1)' }).click();
  await expect(
    page.getByText('Baseline: the session before Week 1 (from the schedule).', { exact: false }),
  ).toBeVisible();

  // The batch: every result is back, so the badge says so.
  await openScreen(page, s.batch(seeded.batchId));
  await expect(page.locator('.page-header .badge', { hasText: /^Complete/ })).toBeVisible();
  await expect(page.getByText('Done sending')).toHaveCount(0);

  // The recording page: the spectrogram's frequency labels stand beside it, not over its first seconds.
  await openScreen(page, s.recording(await firstRecordingId(host, seeded.studyId)));
  await expect(page.locator('.spectrogram canvas').first()).toBeAttached({ timeout: 60_000 });
  await expect(page.locator('.spectrogram canvas[part="spec-labels"]')).toHaveCount(0);
  const gutter = await page.locator('.spectrogram-gutter').boundingBox();
  const spectrogram = await page.locator('.spectrogram').boundingBox();
  expect(gutter!.x + gutter!.width).toBeLessThanOrEqual(spectrogram!.x + 0.5);
  await expect(page.locator('.spectrogram-gutter')).toContainText('1 kHz');

  // The audit log names the study whose schedule changed.
  await openScreen(page, paths.audit);
  await expect(
    page.locator('tr', { hasText: 'Visit schedule changed' }).first().locator('td').nth(1),
  ).toContainText('Pilot PD');

  // The service's name says its version and that it is simulated once each.
  await openScreen(page, paths.newStudy());
  await expect(page.getByLabel('Service profile').locator('option').first()).toHaveText(
    'Built-in sandbox v1.3 (simulated)',
  );
});
