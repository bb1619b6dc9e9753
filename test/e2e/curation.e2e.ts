/**
 * Curation in the window (docs/curation.md): a participant entered twice is merged into the
 * other from the participant page (checked first, a reason asked, then the page says "Merged into", and
 * Undo brings it back); a locally refused file is dismissed from a batch's Needs you with a reason, is
 * listed as dismissed with who and why, and Undo brings it back. axe-core finds nothing on either dialog.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWav } from '../fixtures/audio';
import { checkA11y, expect, openScreen, shoot, test, type Host, ok } from './support/fixtures';

/** P-007 with one session; P-017 (the same person entered again) with one session and one refused take. */
const importStudy = async (host: Host) => {
  const profile = await ok(host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }));
  const study = await ok(host.rpc('studies.create', { name: 'Curation', profileId: profile.id }));
  const rows = ['file,participant,recorded_at,session'];
  const add = (name: string, code: string, date: string, session: string, speech: number) => {
    writeFileSync(
      join(host.incoming, name),
      makeWav({ seconds: 42, speechSeconds: speech, seed: rows.length }),
    );
    rows.push(`${name},${code},${date} 09:30,${session}`);
  };
  add('p007-w1.wav', 'P-007', '2026-01-05', 'week 1', 36);
  add('p017-w2.wav', 'P-017', '2026-01-12', 'week 2', 37);
  add('p017-short.wav', 'P-017', '2026-01-13', 'week 2 retake', 4);
  writeFileSync(join(host.incoming, 'manifest.csv'), rows.join('\n') + '\n');
  const plan = await ok(
    host.rpc('imports.preview', {
      studyId: study.id,
      paths: [],
      manifestPath: join(host.incoming, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: false,
    }),
  );
  const batch = await ok(
    host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label: 'Week 2' }),
  );
  const page = await ok(
    host.rpc('participants.page', { studyId: study.id, sort: 'code', dir: 'asc', offset: 0, limit: 10 }),
  );
  const id = (code: string) => page.rows.find((p) => p.code === code)!.id;
  return { studyId: study.id, batchId: batch.batchId, p007: id('P-007'), p017: id('P-017') };
};

test('merges a participant entered twice and dismisses a refused file, each with a reason and undo', async ({
  page,
  host,
}) => {
  const s = await importStudy(host);

  // Merge P-017 into P-007 from P-017's page.
  await openScreen(page, `/studies/${s.studyId}/participants/${s.p017}`);
  await page.getByRole('button', { name: 'Merge into…' }).click();
  const merge = page.getByRole('group', { name: 'Merge P-017 into another participant?' });
  await merge.getByLabel('The participant it really is (code)').fill('P-007');
  await merge.getByRole('button', { name: 'Check' }).click();
  await expect(merge).toContainText('2 recordings of P-017 move to P-007');
  await merge.getByLabel('Reason (required)').fill('entered twice: P-017 is P-007');
  await checkA11y(page, 'merge dialog');
  await shoot(page, 'curation-merge-dialog');
  await merge.getByRole('button', { name: 'Merge into P-007' }).click();
  await expect(page.getByText('Merged into P-007')).toBeVisible();
  const acts = page.getByRole('table', { name: /What was done to this participant/ });
  await expect(acts).toContainText('Merged into another participant');
  await expect(acts).toContainText('entered twice: P-017 is P-007');
  await shoot(page, 'curation-merged');
  await acts.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Merged into P-007')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Merge into…' })).toBeVisible();

  // Dismiss the refused take from the batch's Needs you.
  await openScreen(page, `/studies/${s.studyId}/batches/${s.batchId}`);
  const refused = page.locator('table.refused');
  await expect(refused).toContainText('p017-short.wav');
  await refused.getByRole('button', { name: 'Dismiss…' }).click();
  const dismiss = page.getByRole('group', { name: 'Dismiss p017-short.wav from “Needs you”?' });
  await dismiss.getByLabel('Reason (required)').fill('a false start, not a session');
  await checkA11y(page, 'dismiss dialog');
  await shoot(page, 'curation-dismiss-dialog');
  await dismiss.getByRole('button', { name: 'Dismiss' }).click();
  const dismissed = page.getByRole('table', { name: /Dismissed \(1\)/ });
  await expect(dismissed).toContainText('a false start, not a session');
  await expect(page.locator('table.refused')).toHaveCount(0);
  await checkA11y(page, 'needs you with a dismissed item');
  await shoot(page, 'curation-dismissed');
  await dismissed.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('table.refused')).toContainText('p017-short.wav');
});
