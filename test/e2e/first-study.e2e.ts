/**
 * A first study's import when nothing in it can be sent: every file is refused, so nothing is costed,
 * no account is created and nothing starts. The whole first study is first-study.slow.e2e.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../renderer/src/app/paths';
import { makeWav } from '../fixtures/audio';
import { expect, openScreen, test } from './support/fixtures';

test.use({ actionTimeout: 45_000 });

test('an import whose every file is refused offers nothing to send: no cost, no account, no start', async ({
  page,
  host,
}) => {
  const profile = await host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' });
  if (!profile.ok) throw new Error(profile.error.message);
  const study = await host.rpc('studies.create', { name: 'Short clips', profileId: profile.value.id });
  if (!study.ok) throw new Error(study.error.message);
  const folder = join(host.incoming, 'short-clips');
  mkdirSync(folder, { recursive: true });
  const rows = ['file,participant,recorded_at,session'];
  for (const [i, code] of ['S-01', 'S-02'].entries()) {
    writeFileSync(join(folder, `${code}.wav`), makeWav({ seconds: 8, speechSeconds: 6, seed: 7 + i }));
    rows.push(`${code}.wav,${code},2026-01-0${i + 5} 09:30,Baseline`);
  }
  writeFileSync(join(folder, 'manifest.csv'), rows.join('\n') + '\n');
  await openScreen(page, paths.study(study.value.id).import);
  await page.getByLabel('Type a path').fill(folder);
  await page.getByRole('button', { name: 'Open in the browser below' }).click();
  const browser = page.getByRole('region', { name: 'Browse this computer' });
  await browser.getByRole('button', { name: 'Use manifest.csv as the manifest' }).click();
  await browser.getByRole('button', { name: /^Add this folder/ }).click();
  await page.getByLabel('Time zone of local times').fill('UTC');
  await page.getByRole('button', { name: 'Preview the import' }).click();
  await expect(page.getByText(/Refused: never sent \(2\)/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
  await expect(page.getByText('No file of this import can be sent')).toBeVisible();
  await expect(page.getByText('Uploads this batch needs')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /service account/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Import and start sending/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import the refused files, without sending' })).toBeVisible();
});
