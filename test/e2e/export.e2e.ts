/**
 * Exporting from the window in browser mode: a selection of an analysed (simulated) study written with
 * its codebook, offered as a zip download whose files and checksums match what the screen reported.
 */
import { unzipSync, strFromU8 } from 'fflate';
import { readFileSync } from 'node:fs';
import { checkA11y, expect, openScreen, shoot, test } from './support/fixtures';
import { seedStudyWithResults } from './support/study-with-results';
import { createHash } from 'node:crypto';

test('export a selection, see what was written, download it whole', async ({ page, host }) => {
  const s = await seedStudyWithResults(host, { name: 'Export study' });
  await openScreen(page, `/studies/${s.studyId}/export`);
  await expect(page.getByRole('heading', { name: 'Export indicator spreadsheets' })).toBeVisible();
  await expect(page.getByText('This study holds simulated results')).toBeVisible();
  await checkA11y(page, 'export form');
  await shoot(page, '20-export-form');

  await page.getByLabel('Only these codes').check();
  await page.getByLabel(/Participant codes/).fill('P-001\nP-003\nP-999');
  await page.getByLabel(/Participant codes/).blur();
  await expect(page.getByText('Not in this study: P-999')).toBeVisible();
  await page.getByLabel(/Participant codes/).fill('P-001, P-003');
  await page.getByLabel('Excel (UTF-8 with a byte order mark)').check();
  await page.getByRole('button', { name: 'Export', exact: true }).click();

  const result = page.getByRole('status').filter({ hasText: 'Export written' });
  await expect(result).toBeVisible();
  await expect(result).toContainText('6 recordings of 2 participants');
  await expect(result.getByText('Simulated results (sandbox)')).toBeVisible();
  await checkA11y(page, 'export written');
  await shoot(page, '21-export-written');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download all files (zip)' }).click();
  const zip = unzipSync(readFileSync(await (await download).path()));
  const names = Object.keys(zip).map((n) => n.split('/').pop());
  expect(names).toEqual(
    expect.arrayContaining([
      'measures_long.csv',
      'measures_wide.csv',
      'participant_summary.csv',
      'recordings.csv',
      'codebook.md',
      'datapackage.json',
      'SHA256SUMS',
    ]),
  );
  expect(names).not.toContain('participant_accounts.csv');
  const file = (n: string) => zip[Object.keys(zip).find((k) => k.endsWith(`/${n}`))!]!;
  // Excel preset: a byte order mark; the codes selected, and no other participant.
  const wide = file('measures_wide.csv');
  expect([...wide.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = strFromU8(wide);
  expect(text).toContain('P-001');
  expect(text).not.toContain('P-002');
  // Every file's checksum as the screen and SHA256SUMS say.
  for (const line of strFromU8(file('SHA256SUMS')).trim().split('\n')) {
    const [sum, name] = line.split(/\s+\*?/);
    expect(createHash('sha256').update(file(name!)).digest('hex')).toBe(sum);
    await expect(
      page.getByRole('row', { name: new RegExp(name!.replace('.', '\\.')) }).getByText(sum!.slice(0, 16)),
    ).toBeVisible();
  }
});

test('an empty selection is refused in plain words, and nothing is written', async ({ page, host }) => {
  const s = await seedStudyWithResults(host, { name: 'Empty export', codes: ['A-1'], sessions: 1 });
  await openScreen(page, `/studies/${s.studyId}/export`);
  await page.getByLabel('Recorded from (inclusive)').fill('2030-01-01');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The export was not written' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('Widen the selection');
  await shoot(page, '22-export-empty');
});
