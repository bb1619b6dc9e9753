/**
 * Participants, a participant's timeline and a recording's detail, as a researcher meets them: a small
 * study imported through the engine against the built-in sandbox (one participant on track with a
 * converted and a marginal session, two overdue), then the list (search, sort, overdue filter), adding,
 * renaming and linking an account (and the conflict), the timeline's charts with baseline bands and
 * markers in both themes, and one recording's values with units and the simulated label.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { makeWav } from '../fixtures/audio';
import { checkA11y, expect, openScreen, shoot, test, type Host, ok } from './support/fixtures';
import { QUICK_ENGINE_SETTINGS } from './support/study-with-results';

const DAY = 86_400_000;
/** Six weekly visits, "week 1" on day 0 to "week 6" on day 35, a day either side. */
const WEEKLY_VISITS = [0, 7, 14, 21, 28, 35].map((targetDay, i) => ({
  name: `week ${i + 1}`,
  targetDay,
  windowBefore: 1,
  windowAfter: 1,
}));
const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * A schedule of six weekly visits ("week 1" on day 0 to "week 6" on day 35, a day either side). P-001
 * records weekly, last 2 days ago (on track); its third session is stereo (converted before upload)
 * and its fifth is a 35-s file whose speech estimate is under 36 s (marginal). P-002 last recorded 20 days ago (weeks 4 and 5
 * missed, week 6 not yet closed), P-003 10 days ago (week 3 missed).
 */
const importStudy = async (host: Host, home: string) => {
  await ok(host.rpc('settings.save', QUICK_ENGINE_SETTINGS));
  const profile = await ok(host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }));
  const study = await ok(
    host.rpc('studies.create', { name: 'Voice follow-up', profileId: profile.id, sessionIntervalDays: 7 }),
  );
  await ok(
    host.rpc('visits.setSchedule', {
      studyId: study.id,
      visits: WEEKLY_VISITS,
    }),
  );
  // The weekly schedule alone gives a baseline of one session (the visit before week 2); the study sets
  // three, so the charts have a baseline spread to show.
  await ok(host.rpc('reliability.setBaselineSessions', { studyId: study.id, baselineSessions: 3 }));
  const dir = join(home, 'incoming');
  mkdirSync(dir, { recursive: true });
  const rows = ['file,participant,recorded_at,session'];
  const add = (
    name: string,
    code: string,
    daysAgo: number,
    session: string,
    opts: { channels?: number; speech?: number; seconds?: number } = {},
  ) => {
    writeFileSync(
      join(dir, name),
      makeWav({
        seconds: opts.seconds ?? 44,
        speechSeconds: opts.speech ?? 38,
        seed: rows.length * 7,
        channels: opts.channels ?? 1,
      }),
    );
    rows.push(`${name},${code},${iso(daysAgo)},${session}`);
  };
  [37, 30, 23, 16, 9, 2].forEach((d, i) =>
    add(
      `p001-w${i + 1}.wav`,
      'P-001',
      d,
      `week ${i + 1}`,
      i === 2 ? { channels: 2 } : i === 4 ? { seconds: 35, speech: 30 } : {},
    ),
  );
  [34, 27, 20].forEach((d, i) => add(`p002-w${i + 1}.wav`, 'P-002', d, `week ${i + 1}`));
  [17, 10].forEach((d, i) => add(`p003-w${i + 1}.wav`, 'P-003', d, `week ${i + 1}`));
  writeFileSync(join(dir, 'manifest.csv'), `${rows.join('\n')}\n`);
  const plan = await ok(
    host.rpc('imports.preview', {
      studyId: study.id,
      paths: [dir],
      manifestPath: join(dir, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'],
      isolateOldestSpeaker: false,
      convert: true,
    }),
  );
  expect(plan.counts).toMatchObject({ upload: 10, convert_and_upload: 1 });
  const commit = await ok(
    host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label: 'Weeks 1–6' }),
  );
  const accounts = await ok(host.rpc('participants.createAccounts', { studyId: study.id }));
  expect(accounts.created).toHaveLength(3);
  await ok(host.rpc('batches.start', { batchId: commit.batchId }));
  await expect
    .poll(
      async () =>
        (
          await ok(
            host.rpc('recordings.page', {
              studyId: study.id,
              filter: 'completed',
              sort: 'id',
              dir: 'asc',
              offset: 0,
              limit: 20,
            }),
          )
        ).total,
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe(11);
  const page = await ok(
    host.rpc('participants.page', { studyId: study.id, sort: 'code', dir: 'asc', offset: 0, limit: 10 }),
  );
  return { studyId: study.id, byCode: Object.fromEntries(page.rows.map((r) => [r.code, r])) };
};

const grid = (page: Page, name: RegExp) => page.getByRole('grid', { name });
const rowCodes = async (page: Page) =>
  (
    await page
      .getByRole('grid', { name: /^Participants/ })
      .getByRole('row')
      .allInnerTexts()
  )
    .slice(1)
    .map((t) => t.split(/\s/)[0]);

test('participants, a timeline and a recording, from a study analysed by the sandbox', async ({
  page,
  host,
}) => {
  test.setTimeout(480_000);
  const { studyId, byCode } = await importStudy(host, host.incoming);

  // The list: counts, recency in colour and words, search, sort, the overdue filter.
  await openScreen(page, `/studies/${studyId}/participants`);
  await expect(page.getByRole('heading', { name: 'Participants', level: 1 })).toBeVisible();
  const list = grid(page, /^Participants/);
  await expect(list.getByRole('row', { name: /P-001/ })).toContainText('On track');
  await expect(list.getByRole('row', { name: /P-002/ })).toContainText('Overdue, 2 missed');
  await expect(list.getByRole('row', { name: /P-003/ })).toContainText('Overdue, 1 missed');
  await expect(list.getByRole('row', { name: /P-001/ }).getByRole('gridcell').nth(2)).toHaveText('6');
  await expect(page.getByText('3 participants', { exact: true })).toBeVisible();
  await checkA11y(page, 'participants list');
  await shoot(page, 'participants-list');

  await page.getByLabel('Search codes').fill('002');
  await expect(page.getByText('1 participant matching “002”')).toBeVisible();
  await expect.poll(() => rowCodes(page)).toEqual(['P-002']);
  await page.getByLabel('Search codes').fill('nobody');
  await expect(page.getByText('No participant code contains “nobody”.')).toBeVisible();
  await expect(grid(page, /^Participants/)).toBeHidden();
  await checkA11y(page, 'participants list, no match');
  await page.getByLabel('Search codes').fill('');
  await expect.poll(() => rowCodes(page)).toEqual(['P-001', 'P-002', 'P-003']);
  await page.getByLabel('Sort by').selectOption('recordings');
  await page.getByLabel('Order').selectOption('desc');
  await expect.poll(() => rowCodes(page)).toEqual(['P-001', 'P-002', 'P-003']);
  await page.getByLabel('Order').selectOption('asc');
  await expect.poll(() => rowCodes(page)).toEqual(['P-003', 'P-002', 'P-001']);

  await page.getByRole('link', { name: 'Overdue' }).click();
  await expect(page).toHaveURL(/participants\/filter\/overdue$/);
  await expect(page.getByText('2 participants · overdue')).toBeVisible();
  await expect.poll(async () => (await rowCodes(page)).sort()).toEqual(['P-002', 'P-003']);
  await checkA11y(page, 'participants list, overdue');

  // Without a schedule nobody is overdue: the list says only how long ago the last recording was.
  // Changed behind the window's back (not through its own action), so the window is reloaded to read it.
  await ok(host.rpc('visits.setSchedule', { studyId, visits: [] }));
  await page.reload();
  await page.getByRole('link', { name: 'All', exact: true }).click();
  await expect(list.getByRole('row', { name: /P-002/ })).toContainText('Last recording 20 days ago');
  await expect(list.getByRole('row', { name: /P-001/ })).toContainText('Last recording 2 days ago');
  await expect(list).not.toContainText('Overdue');
  await page.getByRole('link', { name: 'Overdue' }).click();
  await expect(page.getByText('No participant has missed a visit of the schedule.')).toBeVisible();
  await ok(host.rpc('visits.setSchedule', { studyId, visits: WEEKLY_VISITS }));
  await page.reload();

  // Add a participant, open it with the keyboard, rename it, link an account (and meet the conflict).
  await page.getByRole('link', { name: 'All', exact: true }).click();
  await page.getByLabel('New participant code').fill('P-004');
  await page.getByRole('button', { name: 'Add participant' }).click();
  await expect(page.getByText(/Added P-004/)).toBeVisible();
  await page.getByLabel('New participant code').fill('P-001');
  await page.getByRole('button', { name: 'Add participant' }).click();
  await expect(page.getByRole('alert')).toContainText('The code "P-001" is already used in this study.');
  await page.getByLabel('Search codes').fill('P-004');
  await expect.poll(() => rowCodes(page)).toEqual(['P-004']);
  await grid(page, /^Participants/).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Participant P-004' })).toBeVisible();
  await expect(page.getByText('No results yet')).toBeVisible();
  await checkA11y(page, 'participant without recordings');

  await page.getByLabel('Participant code').fill('P-004b');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { name: 'Participant P-004b' })).toBeVisible();
  await page.getByLabel('Existing account id').fill('not-a-uuid');
  await page.getByRole('button', { name: 'Link account' }).click();
  await expect(page.getByText(/An account id is a UUID/)).toBeVisible();
  await page.getByLabel('Existing account id').fill(byCode['P-001']!.accountId!);
  await page.getByRole('button', { name: 'Link account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The account was not linked' })).toContainText(
    'already linked to another participant',
  );
  await page.getByLabel('Existing account id').fill('3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d');
  await page.getByRole('button', { name: 'Link account' }).click();
  await expect(page.getByText('3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d').first()).toBeVisible();
  await expect(page.getByLabel('Existing account id')).toHaveCount(0);

  // P-001's timeline: a chart per measure, baseline bands, markers on the converted and marginal sessions.
  // (The sandbox, like the service, sometimes leaves a value out: the expected counts come from the timeline.)
  const tl = await ok(
    host.rpc('timeline.participant', { participantId: byCode['P-001']!.id, baselineSessions: 3 }),
  );
  const bySession = Object.fromEntries(tl.sessions.map((s) => [s.session, s]));
  expect(bySession['week 3']!.flags).toMatchObject({ converted: true, marginalSpeech: false });
  expect(bySession['week 5']!.flags).toMatchObject({ converted: false, marginalSpeech: true });
  const flagged = new Set([bySession['week 3']!.recordingId, bySession['week 5']!.recordingId]);
  const hnrPoints = tl.measures.find((m) => m.key === 'pd_hnr')!.series[0]!.points;
  const stressPoints = tl.measures.find((m) => m.key === 'wb_stress')!.series[0]!.points;
  const lmHnrCharts = tl.available.some((m) => m.key === 'lm_hnr_db') ? 1 : 0;
  await openScreen(page, `/studies/${studyId}/participants/${byCode['P-001']!.id}`);
  await expect(page.getByRole('heading', { name: 'Participant P-001' })).toBeVisible();
  await expect(page.getByText('Simulated results (sandbox)').first()).toBeVisible();
  // Every measure (a few of each type are shown at first); the choice is kept for the study.
  await page.getByText(/^Measures shown:/).click();
  await page.getByRole('button', { name: 'Show all' }).click();
  await page.getByText(/^Measures shown:/).click();
  // The service's HNR, by its name: the one computed here is "Harmonics-to-noise ratio, computed here".
  const hnr = page.getByRole('figure', { name: /^Harmonics-to-noise ratio \(dB\)$/ });
  await expect(page.getByRole('figure', { name: /^Harmonics-to-noise ratio, computed here/ })).toHaveCount(
    lmHnrCharts,
  );
  await expect(hnr.locator('.tchart-canvas')).toHaveAttribute('data-chart', 'pd_hnr');
  // A chart draws when it comes near the window (a page of 37 charts draws the few in view).
  await hnr.scrollIntoViewIfNeeded();
  await expect(hnr.locator('canvas').first()).toBeVisible();
  await expect(hnr.locator('.tchart-canvas')).toHaveAttribute('data-bands', '1');
  await expect(hnr.locator('.tchart-canvas')).toHaveAttribute(
    'data-markers',
    String(hnrPoints.filter((p) => flagged.has(p.recordingId)).length),
  );
  // The change is given once a session after the 3-session baseline exists, with its reliable-change verdict.
  if (hnrPoints.length > 3) {
    await expect(hnr).toContainText(/from baseline/);
    await expect(hnr).toContainText(/reliable|no reliable-change verdict/);
  }
  await expect(hnr).toContainText(
    new RegExp(`${hnrPoints.length} sessions from .*; baseline \\(first 3\\) \\d+\\.\\d dB ± \\d+\\.\\d`),
  );
  const stress = page.getByRole('figure', { name: /^Stress/ });
  await stress.scrollIntoViewIfNeeded();
  await expect(stress.locator('.tchart-canvas')).toHaveAttribute(
    'data-markers',
    String(stressPoints.filter((p) => flagged.has(p.recordingId)).length),
  );
  await expect(stress).toContainText('Levels: low < moderate < high');
  await expect(page.getByText('Converted before upload (e.g. stereo to mono)')).toBeVisible();
  await expect(page.getByText(/Marginal speech \(under 36 s detected\)$/)).toBeVisible();
  expect(await page.getByRole('figure').count()).toBeGreaterThanOrEqual(30);
  await hnr.getByText('Values as a table').click();
  const hnrTable = hnr.getByRole('table');
  await expect(hnrTable.getByRole('row')).toHaveCount(hnrPoints.length + 1);
  if (hnrPoints.some((p) => p.recordingId === bySession['week 3']!.recordingId))
    await expect(hnrTable).toContainText('Converted before upload');
  if (hnrPoints.some((p) => p.recordingId === bySession['week 5']!.recordingId))
    await expect(hnrTable).toContainText('Marginal speech');
  await expect(hnrTable).toContainText('(simulated)');
  // A longer baseline changes the band and the change.
  await page.getByLabel('Baseline sessions (for the study)').fill('5');
  // A baseline needs all its sessions: with fewer than 5 values the chart says so instead of a figure.
  await expect(hnr).toContainText(
    hnrPoints.length >= 5 ? 'baseline (first 5)' : `no baseline yet (${hnrPoints.length} of 5 sessions)`,
  );
  await checkA11y(page, 'participant timeline');
  await shoot(page, 'participant-timeline');

  await page.getByLabel('Theme').selectOption('dark');
  await hnr.scrollIntoViewIfNeeded();
  await expect(hnr.locator('.tchart-canvas')).toHaveAttribute('data-bands', '1');
  await checkA11y(page, 'participant timeline, dark');
  // The 37 charts were shot whole in light just above; in dark, the top of the page shows the theme.
  await shoot(page, 'participant-timeline-dark', { fullPage: false });
  await page.getByLabel('Theme').selectOption('light');

  // The converted recording's detail: facts, values with units and meanings, simulated.
  const recordings = grid(page, /^Recordings of P-001/);
  await recordings.getByRole('row', { name: /p001-w3\.wav/ }).click();
  await expect(page.getByRole('heading', { name: 'p001-w3.wav' })).toBeVisible();
  await expect(page.getByText('Simulated results (sandbox)')).toBeVisible();
  await expect(page.getByText(/A converted copy/)).toBeVisible();
  await expect(page.getByText('(from the manifest)')).toBeVisible();
  const pd = page.getByRole('table', { name: /Parkinson's: Completed/ });
  await expect(pd.getByRole('row', { name: /Harmonics-to-noise ratio/ })).toContainText('dB');
  await expect(pd.getByRole('row', { name: /Speech rate SD/ })).toContainText('words/min');
  await expect(pd.getByRole('row', { name: /Volume/ })).toContainText('Mean energy');
  await expect(
    page.getByRole('table', { name: /Wellbeing: Completed/ }).getByRole('row', { name: /Stress/ }),
  ).toContainText(/low|moderate|high/);
  await expect(
    page
      .getByRole('table', { name: /Analyses|state/ })
      .or(page.getByRole('table').filter({ hasText: 'Polls' })),
  ).toContainText('Completed');
  await expect(page.getByRole('table').filter({ hasText: 'Local (original file)' })).toContainText('stereo');
  await checkA11y(page, 'recording detail');
  await shoot(page, 'recording-detail');
  await page.getByRole('link', { name: 'P-001' }).first().click();
  await expect(page.getByRole('heading', { name: 'Participant P-001' })).toBeVisible();

  // A participant whose first sessions were analysed with API v1.2 (a study that moved to v1.3): the
  // sandbox answers one version per profile, so the two sessions are relabelled in the study database.
  const db = new Database(join(host.home, 'voicescope.sqlite'));
  db.pragma('busy_timeout = 5000');
  const relabelled = db
    .prepare(
      `UPDATE recordings SET api_version = 'v1.2' WHERE participant_id = ? AND session_label IN ('week 1', 'week 2')`,
    )
    .run(byCode['P-002']!.id).changes;
  db.close();
  expect(relabelled).toBe(2);
  await openScreen(page, `/studies/${studyId}/participants/${byCode['P-002']!.id}`);
  const notice = page.getByRole('status').filter({ hasText: 'Results from two API versions' });
  await expect(notice).toContainText('never joined');
  await expect(page.getByText('API v1.2 results (dashed line, hollow points)')).toBeVisible();
  await expect(page.getByText('API v1.3 results (solid line, filled points)')).toBeVisible();
  const volume = page.getByRole('figure', { name: /^Volume/ });
  await volume.scrollIntoViewIfNeeded();
  // Two v1.2 sessions and one v1.3 session: neither version has the 3 a baseline needs, so no band is
  // drawn and the chart says so (never a baseline over fewer sessions than k).
  await expect(volume.locator('.tchart-canvas')).toHaveAttribute('data-bands', '0');
  await expect(volume).toContainText(/v1\.2: 2 sessions .* v1\.3: 1 session/);
  await expect(volume).toContainText(/no baseline yet/);
  await checkA11y(page, 'participant timeline, two API versions');
  await shoot(page, 'participant-timeline-two-versions');

  // Readable at 125 %: nothing scrolls sideways, on the list or the timeline.
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await openScreen(page, `/studies/${studyId}/participants`);
  await page.evaluate(() => {
    document.body.style.zoom = '1.25';
  });
  await expect(grid(page, /^Participants/).getByRole('row', { name: /P-002/ })).toContainText('Overdue');
  expect(await overflow(), 'no horizontal scrolling at 125 %').toBeLessThanOrEqual(0);
  await shoot(page, 'participants-list-125');
  await grid(page, /^Participants/)
    .getByRole('row', { name: /P-001/ })
    .click();
  await hnr.scrollIntoViewIfNeeded();
  await expect(hnr.locator('.tchart-canvas')).toHaveAttribute('data-bands', '1');
  expect(await overflow(), 'no horizontal scrolling at 125 %').toBeLessThanOrEqual(0);
  // The overflow is measured on the whole page above; the shot shows the top at 125 % (shot whole at 100 %).
  await shoot(page, 'participant-timeline-125', { fullPage: false });
});
