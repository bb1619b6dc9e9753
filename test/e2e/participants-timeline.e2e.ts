/**
 * Issue 16 item 2, a participant page you can read: a study with results (test/support/cohort-study.ts,
 * weekly sessions) gets a visit schedule that leaves two sessions outside every visit; one recording is
 * excluded by the researcher, one value is flagged as departing from the specification, the latest HNR
 * is a reliable change, and local acoustic measures are stored. As a researcher: pick a local measure in
 * the picker, read the marks and their legend (excluded, flagged, reliable change, outside every visit),
 * switch to the visit axis (the schedule's names) and to days since baseline, follow an excluded point
 * to its recording. axe-core in light and dark; screenshots at 100 % and 200 % zoom.
 */
import { dqFlag } from '../../shared/api/data-quality';
import { replaceFlags } from '../../main/db/repos/data-quality.repo';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { saveMeasurement } from '../../main/db/repos/local-measures.repo';
import { openStudyDb } from '../../main/db/open';
import { openWorkspace } from '../../main/workspace/workspace';
import { seedCohortStudy } from '../support/cohort-study';
import { checkA11y, expect, nextFrames, openScreen, shoot, test, type Host, ok } from './support/fixtures';

test.use({ actionTimeout: 45_000 });

/** The study and P-002's recordings (oldest first), marked as the file's header says. */
const seed = async (host: Host) => {
  const { studyId, participants } = seedCohortStudy(host.home);
  const pid = participants.get('P-002')!;
  // Weekly sessions on days 0, 7, 14, 21, 28, 35 (labelled "week 1" to "week 6", naming no visit): days 7
  // and 21 fall in no visit's window.
  await ok(
    host.rpc('visits.setSchedule', {
      studyId,
      visits: [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 1 },
        { name: 'Day 14', targetDay: 14, windowBefore: 2, windowAfter: 2 },
        { name: 'Day 28', targetDay: 28, windowBefore: 2, windowAfter: 2 },
        { name: 'Day 35', targetDay: 35, windowBefore: 2, windowAfter: 2 },
      ],
    }),
  );
  const before = await ok(host.rpc('timeline.participant', { participantId: pid, measures: ['pd_hnr'] }));
  const ids = before.sessions.map((s) => s.recordingId);
  expect(ids).toHaveLength(6);
  await ok(host.rpc('curation.excludeRecording', { recordingId: ids[3]!, reason: 'a relative answered' }));
  const hnr = before.measures[0]!.series[0]!;
  const { db } = openStudyDb(openWorkspace(host.home).dbPath);
  try {
    await replaceFlags(sqliteStore(db), new Date().toISOString(), ids[1]!, 'poll', 'parkinsons', [
      dqFlag('negative_value', 'analysis.parkinsons.hnr', -3, 'zero or more', ['pd_hnr']),
    ]);
    // The latest HNR far above the baseline: a reliable increase, whatever the seeded noise.
    const b = hnr.points.slice(0, 3).map((p) => p.value as number);
    const mean = b.reduce((a, x) => a + x, 0) / 3;
    db.prepare(
      `UPDATE measure_values SET value_num = ? WHERE recording_id = ? AND measure_key = 'pd_hnr'`,
    ).run(mean + 12, ids[5]!);
    for (const [i, id] of ids.entries())
      await saveMeasurement(sqliteStore(db), {
        recordingId: id,
        measuredAt: new Date().toISOString(),
        engineVersion: '0.2.0',
        settings: '{"pitchFloor":75,"pitchCeiling":500}',
        audioPath: `/seeded/${id}.wav`,
        problem: null,
        quality: null,
        measures: { f0_mean_hz: 118 + 2 * i, jitter_local_pct: 0.8 + 0.05 * i },
      });
  } finally {
    db.close();
  }
  return { studyId, pid, ids };
};

test('participant page: a local measure picked, excluded, flagged and reliable-change points marked with their legend, visits on the axis', async ({
  page,
  host,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const { studyId, pid, ids } = await seed(host);
  await ok(
    host.rpc('cohort.saveChartChoice', {
      studyId,
      choice: { measures: ['pd_hnr', 'wb_stress'], axis: 'date' },
    }),
  );
  await openScreen(page, `/studies/${studyId}/participants/${pid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Participant P-002' })).toBeVisible({
    timeout: 60_000,
  });
  const charts = page.locator('.tgrid figure.tchart');
  await expect(charts).toHaveCount(2, { timeout: 60_000 });

  // A local measure, picked like any other, with its unit.
  await page.getByText(/^Measures shown:/).click();
  const localGroup = page.getByRole('group', { name: 'Local acoustic measures (computed here)' });
  await expect(localGroup).toBeVisible();
  await localGroup.getByRole('checkbox', { name: 'Mean F0, computed here (Hz)' }).check();
  await page.getByText(/^Measures shown:/).click();
  await expect(charts).toHaveCount(3);
  const f0 = page.getByRole('figure', { name: /^Mean F0, computed here/ });
  await expect(f0.locator('.tchart-canvas')).toHaveAttribute('data-drawn', /\d/);
  await expect(f0).toContainText('(Hz)');
  await expect(f0).toContainText(/local: 5 sessions/);
  await expect(page.getByText(/^Local measures \(computed here from the audio/)).toBeVisible();

  // Marks: the excluded recording (a cross, off the line), the flagged value (a ring), the reliable change (an arrow).
  const hnr = page.getByRole('figure', { name: /^Harmonics-to-noise ratio \(dB\)$/ });
  const canvas = hnr.locator('.tchart-canvas');
  await expect(canvas).toHaveAttribute('data-excluded', '1');
  await expect(canvas).toHaveAttribute('data-flagged', '1');
  await expect(canvas).toHaveAttribute('data-reliable', /[1-9]/);
  await expect(hnr).toContainText(/reliable change from the baseline \(increase on/);
  await expect(hnr).toContainText(/one value of excluded recordings drawn as crosses/);
  const legend = page.getByRole('group', { name: 'How to read the charts' });
  await expect(legend.locator('[data-mark="excluded"]')).toContainText('Excluded from analysis');
  await expect(legend.locator('[data-mark="excluded"]')).toContainText('(1)');
  await expect(legend.locator('[data-mark="reliable"]')).toContainText('Reliable change');
  await expect(legend).toContainText(/Flagged value: departs from the specification.*\(1;/);
  await expect(legend.locator('svg').first()).toBeVisible();

  // The values' table: visit of each value, the excluded one marked with its reason, the reliable change.
  await hnr.getByText('Values as a table').click();
  const table = hnr.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Date and visit' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(7);
  await expect(table.locator('tr[data-excluded]')).toContainText('a relative answered');
  await expect(table.locator('tr.flagged')).toContainText('Flagged');
  await expect(table).toContainText('Visit 1: Baseline');
  await expect(table).toContainText('outside every visit');
  await expect(table).toContainText(/reliable increase \(RCI \+\d/);
  await checkA11y(page, 'participant timeline with marks');
  await shoot(page, 'participant-timeline-marks');

  // The visit axis: the schedule's names, two recordings outside every visit (one of them the excluded one).
  await page.getByLabel('Time axis').selectOption('visit');
  await expect(page.locator('.tgrid')).toHaveAttribute('data-axis', 'visit');
  await expect(page.getByText(/2 outside every visit, drawn between the visits around them/)).toBeVisible();
  await expect(canvas).toHaveAttribute('data-outside', '2');
  await expect(legend.locator('[data-mark="outside"]')).toContainText('(2)');
  await checkA11y(page, 'participant timeline, visit axis');
  await shoot(page, 'participant-timeline-visits');

  // Days since baseline: day 0 is the first recording here (no baseline date set), and the page says so.
  await page.getByLabel('Time axis').selectOption('days');
  await expect(
    page.getByText(/calendar days since \d{4}-\d{2}-\d{2}, the participant’s first recording/),
  ).toBeVisible();

  // 200 % zoom (a 1280 × 800 window is 640 × 400 CSS pixels): nothing scrolls sideways; then dark.
  await page.getByLabel('Time axis').selectOption('visit');
  await page.setViewportSize({ width: 640, height: 400 });
  // The charts follow the new width (ResizeObserver, then React) within the next frames.
  await nextFrames(page);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    'no sideways scrolling at 200 %',
  ).toBeLessThanOrEqual(0);
  await shoot(page, 'participant-timeline-marks-200');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel('Theme').selectOption('dark');
  await expect(canvas).toHaveAttribute('data-excluded', '1');
  await checkA11y(page, 'participant timeline with marks, dark');
  await shoot(page, 'participant-timeline-marks-dark');
  await page.setViewportSize({ width: 640, height: 400 });
  await nextFrames(page);
  await shoot(page, 'participant-timeline-marks-dark-200');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel('Theme').selectOption('light');

  // Each point leads to its recording: the excluded one's date in the table.
  await table.locator('tr[data-excluded] a').click();
  await expect(page).toHaveURL(new RegExp(`#/studies/${studyId}/recordings/${ids[3]}$`));
});
