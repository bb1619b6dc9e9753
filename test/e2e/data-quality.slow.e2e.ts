/**
 * Values the service sent outside its specification, as a researcher meets them: a study analysed by the
 * built-in sandbox, in which one recording's answer carried a communication-coach clarity score of 101
 * (the specification's range is 0 to 100) and whose upload receipt gave another sample rate than the
 * file has. The odd value is seeded in the study database through the repositories (as the reader would
 * have stored it: kept as received, with its flag), before the window opens it. The recording page shows
 * 101 marked as flagged with the reason; the participant's timeline draws the point where it is (above
 * the range, never clamped) ringed as flagged, says so in words and in its table; the batch page lists
 * the receipt difference. Each screen passes axe in both themes, with screenshots.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { dqFlag } from '../../shared/api/data-quality';
import { checkReceipt } from '../../shared/api/receipt-check';
import { replaceFlags } from '../../main/db/repos/data-quality.repo';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { checkA11y, expect, openScreen, shoot, test } from './support/fixtures';
import { seedStudyWithResults } from './support/study-with-results';

test('a flagged value is marked on the recording page and the timeline, a receipt difference on the batch page', async ({
  page,
  host,
}) => {
  test.setTimeout(480_000);
  const seeded = await seedStudyWithResults(host, {
    name: 'Data quality study',
    codes: ['P-001'],
    sessions: 3,
  });
  const { studyId, batchId } = seeded;

  const db = new Database(join(host.home, 'voicescope.sqlite'));
  db.pragma('busy_timeout = 5000');
  const rec = db
    .prepare(
      `SELECT r.id, r.participant_id AS pid, r.source_path FROM recordings r WHERE r.session_label = 'week 2'`,
    )
    .get() as { id: number; pid: number; source_path: string };
  const now = new Date().toISOString();
  // As the tolerant reader stores a score of 101: the value as received, and a flag naming the measure.
  const stored = db
    .prepare(
      `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text)
       SELECT id, 'cc_clarity', participant_id, recorded_at, 101, NULL FROM recordings WHERE id = ?
       ON CONFLICT (recording_id, measure_key) DO UPDATE SET value_num = 101, value_text = NULL`,
    )
    .run(rec.id).changes;
  expect(stored).toBe(1);
  await replaceFlags(sqliteStore(db), now, rec.id, 'poll', 'communication_coach', [
    dqFlag(
      'score_out_of_range',
      'analysis.communication_coach.insights.clarity.score',
      101,
      'an integer from 0 to 100',
      ['cc_clarity'],
    ),
  ]);
  // A speech time the service counts 18 s shorter than the local estimate of 68.29599999999996 s.
  const speechFlags = checkReceipt(
    {
      apiVersion: 'v1.3',
      recordingId: '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f',
      accountId: null,
      recordedAt: null,
      uploadedAt: null,
      source: 'service',
      flags: [],
      audio: {
        format: null,
        sizeBytes: null,
        sampleRateHz: null,
        bitRateBps: null,
        durationSeconds: null,
        speechDurationSeconds: 50.5,
      },
    },
    {
      accountId: 'a',
      recordedAt: now,
      isolateOldestSpeaker: false,
      probe: {
        format: 'wav',
        sizeBytes: 1,
        sampleRateHz: 16000,
        durationSeconds: 80,
        speechSeconds: 68.29599999999996,
      },
    },
  );
  await replaceFlags(sqliteStore(db), now, rec.id, 'receipt_check', null, [
    dqFlag(
      'receipt_sample_rate_differs',
      'metadata.sample_rate_hz',
      8000,
      '16000 Hz, as read on the workstation',
    ),
    ...speechFlags,
  ]);
  // The import measures the recording in the background; its maximum F0 is then set at the search's ceiling.
  const measured: { ceiling: number | null } = { ceiling: null };
  await expect
    .poll(
      async () => {
        const m = await host.rpc('acoustics.recording', { recordingId: rec.id });
        measured.ceiling = m.ok && m.value ? m.value.pitchCeilingHz : null;
        return measured.ceiling !== null;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe(true);
  db.prepare(`UPDATE local_measures SET value = ? WHERE recording_id = ? AND measure = 'f0_max_hz'`).run(
    measured.ceiling! - 2.05,
    rec.id,
  );
  db.close();

  // The recording page: 101 shown as received, marked, with the reason in words.
  await openScreen(page, `/studies/${studyId}/recordings/${rec.id}`);
  await expect(page.getByRole('heading', { name: 'P-001-week2.wav' })).toBeVisible();
  const cc = page.getByRole('table', { name: /^Communication coach: Completed/ });
  const clarity = cc.getByRole('row', { name: /Clarity/ });
  await expect(clarity).toContainText('101');
  await expect(clarity).toContainText('Flagged');
  await expect(clarity).toContainText('A score outside its range');
  await expect(clarity.locator('.value-cell')).toHaveAttribute('data-flags', 'score_out_of_range');
  const dq = page.getByRole('table', { name: 'Data-quality flags of this recording' });
  await expect(dq.locator('[data-flag="receipt_sample_rate_differs"]')).toContainText('8000');
  await expect(dq.locator('[data-flag="score_out_of_range"]')).toContainText('101');
  // The three speech durations side by side, each with what it is, and why they differ.
  const durations = page.getByTestId('speech-durations');
  for (const label of ['Import’s estimate', 'Service', 'Local measures’ speech time'])
    await expect(durations.getByText(label, { exact: true })).toBeVisible();
  await expect(durations).toContainText('Voice activity detection on the original file at import');
  await expect(durations).toContainText('Reported by the service in its upload receipt');
  await expect(durations).toContainText('Total duration of the sounding intervals');
  await expect(durations).toContainText('They differ because');
  // A local value at the pitch search's ceiling is flagged beside it and named above the table.
  const maxF0 = page.getByRole('row', { name: /Maximum F0/ });
  await expect(maxF0).toContainText('at the search ceiling');
  await expect(page.getByTestId('limit-flags')).toContainText(
    `Maximum F0 is at the pitch search's ceiling (${measured.ceiling} Hz)`,
  );
  await checkA11y(page, 'recording with a flagged value');
  await shoot(page, 'data-quality-recording');
  await page.getByLabel('Theme').selectOption('dark');
  await checkA11y(page, 'recording with a flagged value, dark');
  await shoot(page, 'data-quality-recording-dark');
  await page.getByLabel('Theme').selectOption('light');

  // The timeline: the point drawn where it is (the axis passes 100, the range drawn as a dotted line),
  // ringed as flagged; the same in words in the summary, the legend and the table.
  await openScreen(page, `/studies/${studyId}/participants/${rec.pid}`);
  await expect(page.getByRole('heading', { name: 'Participant P-001' })).toBeVisible();
  // Every measure (a few of each type are shown at first).
  await page.getByText(/^Measures shown:/).click();
  await page.getByRole('button', { name: 'Show all' }).click();
  await page.getByText(/^Measures shown:/).click();
  const chart = page.getByRole('figure', { name: /^Clarity/ });
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator('.tchart-canvas')).toHaveAttribute('data-flagged', '1');
  await expect(chart.locator('.tchart-canvas')).toHaveAttribute('data-range', '0–100');
  await expect(chart).toContainText(/one value flagged as departing from the specification \(101 on /);
  await expect(
    page.getByText(/Flagged value: departs from the specification, kept as received \(1;/),
  ).toBeVisible();
  await chart.getByText('Values as a table').click();
  const row = chart.locator('tr[data-flags="score_out_of_range"]');
  await expect(row).toContainText('101');
  await expect(row).toContainText('Flagged score out of range');
  await expect(row).toContainText('expected an integer from 0 to 100');
  // Other measures of the same recording are not marked.
  // A chart draws when it comes near the window.
  await page.getByRole('figure', { name: /^Rhythm/ }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('figure', { name: /^Rhythm/ }).locator('.tchart-canvas')).toHaveAttribute(
    'data-flagged',
    '0',
  );
  await checkA11y(page, 'timeline with a flagged point');
  // The flagged chart itself, light and dark. Not the whole page: with every measure shown it holds 37
  // charts, and a full-page screenshot of them took longer than 15 s (it failed the test twice on the
  // shared machine); the timeline as a main screen is shot in participants.slow.e2e.ts and zoom.slow.e2e.ts.
  await chart.screenshot({ path: join('test-results', 'screenshots', 'data-quality-timeline-chart.png') });
  await page.getByLabel('Theme').selectOption('dark');
  await expect(chart.locator('.tchart-canvas')).toHaveAttribute('data-flagged', '1');
  await checkA11y(page, 'timeline with a flagged point, dark');
  await chart.screenshot({
    path: join('test-results', 'screenshots', 'data-quality-timeline-chart-dark.png'),
  });

  // The batch page: the receipt difference, with its recording and what differed.
  await openScreen(page, `/studies/${studyId}/batches/${batchId}`);
  const receipts = page.getByRole('table', { name: 'Upload receipts of this batch that differ' });
  await expect(receipts).toBeVisible();
  await expect(receipts.getByRole('row')).toHaveCount(3);
  // Numbers rounded to their precision, with their unit: never the raw binary fraction.
  const speechDiff = receipts.locator('[data-flag="receipt_speech_differs"]');
  await expect(speechDiff).toContainText('68.3 s ± 13.7 s (local estimate)');
  await expect(receipts).not.toContainText('68.29599999999996');
  await expect(receipts).not.toContainText('13.659199999999993');
  const diff = receipts.locator('[data-flag="receipt_sample_rate_differs"]');
  await expect(diff).toContainText('P-001 · P-001-week2.wav');
  await expect(diff).toContainText("The service's sample rate differs");
  await expect(diff).toContainText('8000');
  await expect(page.getByText(/For 1 recording the service’s upload receipt differs/)).toBeVisible();
  // Still in the dark theme (the choice is kept), then in the light one.
  await checkA11y(page, 'batch with a receipt difference, dark');
  await shoot(page, 'data-quality-batch-dark');
  await page.getByLabel('Theme').selectOption('light');
  await checkA11y(page, 'batch with a receipt difference');
  await shoot(page, 'data-quality-batch');
  await diff.getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'P-001-week2.wav' })).toBeVisible();
});
