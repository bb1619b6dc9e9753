/**
 * Privacy screens as a researcher meets them: a study's "Archive and delete" while a batch is sending
 * (deletion refused, with the way out), an archive into the workspace, the batch cancelled, a wrong
 * name refused and the study deleted; then the audit log (no participant codes anywhere on it) and the
 * privacy page with diagnostic logging switched on, in both themes. Axe on every screen.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWav } from '../fixtures/audio';
import { checkA11y, expect, openScreen, shoot, test, type Host, ok } from './support/fixtures';
import { QUICK_ENGINE_SETTINGS } from './support/study-with-results';

const CODES = ['PRV-ALPHA-11', 'PRV-BRAVO-22'];

const importStudy = async (host: Host) => {
  await ok(host.rpc('settings.save', QUICK_ENGINE_SETTINGS));
  const profile = await ok(host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }));
  // Uploads take 15 s to be answered, so the batch is still sending while the screen is looked at, and
  // the analysis ten minutes, so the batch is still running when the test cancels it, however slowly the
  // screens before were checked (on a loaded machine the batch once finished first: cancel said CONFLICT).
  await host.sandboxAdmin('PUT', 'scenario', {
    preset: 'fast',
    latency: { upload: { fixedMs: 15_000, jitterMs: 0 } },
    processingMs: { wellbeing: 600_000 },
  });
  const study = await ok(host.rpc('studies.create', { name: 'Pilot 2026', profileId: profile.id }));
  const dir = host.incoming;
  mkdirSync(dir, { recursive: true });
  const rows = ['file,participant,recorded_at'];
  CODES.forEach((code, p) =>
    [0, 1].forEach((i) => {
      const name = `${code}_s${i}.wav`;
      writeFileSync(
        join(dir, name),
        makeWav({ seconds: 40, speechSeconds: 35, seed: p * 10 + i, channels: i === 1 ? 2 : 1 }),
      );
      rows.push(`${name},${code},2026-03-0${i + 1}T09:00:00Z`);
    }),
  );
  writeFileSync(join(dir, 'manifest.csv'), `${rows.join('\n')}\n`);
  const plan = await ok(
    host.rpc('imports.preview', {
      studyId: study.id,
      paths: [dir],
      manifestPath: join(dir, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: true,
    }),
  );
  const commit = await ok(
    host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label: 'March' }),
  );
  await ok(host.rpc('participants.createAccounts', { studyId: study.id }));
  await ok(host.rpc('batches.start', { batchId: commit.batchId }));
  return { studyId: study.id, batchId: commit.batchId };
};

test('archive and delete a study, then the audit log and the privacy page', async ({ page, host }) => {
  test.setTimeout(180_000);
  const { studyId, batchId } = await importStudy(host);

  await openScreen(page, `/studies/${studyId}/data`);
  await expect(page.getByRole('heading', { name: 'Archive and delete', level: 1 })).toBeVisible();
  await expect(page.getByText('Study “Pilot 2026”: its data on this computer.')).toBeVisible();
  const facts = page.locator('dl.facts-list');
  await expect(facts).toContainText('Participants2');
  await expect(facts).toContainText('Recordings4');
  await expect(facts).toContainText('Converted copies2');
  await expect(page.getByText('This study is sending recordings')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete this study for good' })).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Archive and delete' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await checkA11y(page, 'archive and delete (sending)');
  await shoot(page, 'privacy-01-study-data-sending');

  await page.getByRole('button', { name: 'Archive now' }).click();
  const archived = page.getByRole('status').filter({ hasText: 'Archived' });
  await expect(archived).toContainText('2 participants and 4 recordings written to');
  await expect(archived).toContainText('study.sqlite');
  await expect(archived).toContainText('study-settings.json');
  const archives = join(host.home, 'archives');
  expect(readdirSync(archives)).toHaveLength(1);
  expect(readdirSync(join(archives, readdirSync(archives)[0]!)).sort()).toEqual([
    'SHA256SUMS',
    'study-settings.json',
    'study.sqlite',
  ]);
  await shoot(page, 'privacy-02-archived');

  await ok(host.rpc('batches.cancel', { batchId }));
  await expect
    .poll(
      async () => {
        const s = await ok(host.rpc('studies.dataSummary', { studyId }));
        return s.runningBatches + s.uploadsInFlight;
      },
      { timeout: 60_000 },
    )
    .toBe(0);
  await openScreen(page, `/studies/${studyId}/data`);
  await expect(page.getByText('Last archived')).toBeVisible();
  await expect(page.getByText('This study is sending recordings')).toHaveCount(0);
  const confirm = page.getByLabel("Type the study's name to confirm: Pilot 2026");
  await confirm.fill('pilot 2026');
  await expect(page.getByRole('button', { name: 'Delete this study for good' })).toBeDisabled();
  await confirm.fill('Pilot 2026');
  await checkA11y(page, 'archive and delete (ready)');
  await page.getByRole('button', { name: 'Delete this study for good' }).click();
  await expect(page.getByRole('heading', { name: 'Study deleted' })).toBeVisible();
  await expect(
    page.getByText('2 participants, 4 recordings, 2 converted copies and 0 export folders were removed.'),
  ).toBeVisible();
  // The deleted study's pages are gone from the sidebar too.
  await expect(page.getByRole('navigation', { name: 'Main' })).not.toContainText('Pilot 2026');
  await checkA11y(page, 'study deleted');
  await shoot(page, 'privacy-03-deleted');
  expect(existsSync(join(host.home, 'converted', `study-${studyId}`))).toBe(false);
  expect((await ok(host.rpc('studies.list', {}))).map((s) => s.name)).toEqual([]);

  await page.getByRole('link', { name: 'Privacy and audit' }).click();
  await expect(page.getByRole('heading', { name: 'Privacy and audit', level: 1 })).toBeVisible();
  // The audit log's chain is checked when the page opens: the archive and the deletion fit it.
  await expect(page.getByText('Intact')).toBeVisible();
  await expect(page.getByText(/all \d+ entries fit the chain/)).toBeVisible();
  const diagnostic = page.getByLabel('Diagnostic mode: keep participant codes in the log');
  await diagnostic.click();
  await expect(diagnostic).toBeChecked();
  await expect(page.getByText('Diagnostic mode is on')).toBeVisible();
  await checkA11y(page, 'privacy');
  await shoot(page, 'privacy-04-privacy-page');
  await page.getByLabel('Theme').selectOption('dark');
  await checkA11y(page, 'privacy (dark)');
  await shoot(page, 'privacy-05-privacy-page-dark');
  await diagnostic.click();
  await expect(diagnostic).not.toBeChecked();
  await expect(page.getByText('Diagnostic mode is on')).toHaveCount(0);

  await page.getByRole('link', { name: 'Open the audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('row').nth(1)).toContainText('Diagnostic logging switched off');
  for (const what of ['Diagnostic logging switched on', 'Study deleted', 'Study archived', 'API key added'])
    await expect(table.getByRole('rowheader', { name: what })).toBeVisible();
  await expect(table.getByRole('row', { name: /Study deleted/ })).toContainText('Pilot 2026');
  await expect(table.getByRole('row', { name: /Study deleted/ })).toContainText(
    '2 participants · 4 recordings · 2 converted copies removed',
  );
  const text = await page.locator('main').innerText();
  for (const code of CODES) expect(text).not.toContain(code);
  await checkA11y(page, 'audit log (dark)');
  await shoot(page, 'privacy-06-audit-dark');
  await page.getByLabel('Theme').selectOption('light');
  await shoot(page, 'privacy-07-audit');
});

test('the audit log before anything happened, and a study that does not exist', async ({ page }) => {
  await openScreen(page, '/audit');
  await expect(page.getByText('Nothing recorded yet.')).toBeVisible();
  await checkA11y(page, 'audit log (empty)');
  await shoot(page, 'privacy-08-audit-empty');
  await openScreen(page, '/studies/99/data');
  await expect(page.getByRole('heading', { name: 'Archive and delete', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('This study does not exist (any more).');
  await checkA11y(page, 'archive and delete (missing study)');
  await shoot(page, 'privacy-09-missing-study');
});
