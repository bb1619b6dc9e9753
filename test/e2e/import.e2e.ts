/**
 * Import and batches as a researcher meets them, in browser mode against the built-in sandbox: a folder
 * of generated recordings with a manifest goes through the wizard (built-in file browser, preview with a
 * refused file's reason, the conversion switch turning a stereo file into "convert and upload", credit
 * estimate, accounts), then the batch monitor shows it run and complete, a held duplicate is sent anyway,
 * and the recordings page filters and searches the study. Recovering from sandbox faults is
 * import-faults.slow.e2e.ts. Only setup goes through `host.rpc`; every journey step is done in the page.
 */
import { checkA11y, expect, openScreen, shoot, test } from './support/fixtures';
import { setUp, batchStatus, useSmallStudyFolder } from './support/import-journey';

const folder = useSmallStudyFolder();

test('import a folder with a manifest: refused file explained, stereo file converted, batch watched to completion', async ({
  page,
  host,
}) => {
  const { studyId } = await setUp(host, 'Speech pilot');
  await openScreen(page, `/studies/${studyId}/import`);
  await expect(page.getByRole('heading', { name: 'Import recordings' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Import steps' }).locator('[aria-current="step"]'),
  ).toContainText('Choose files');
  // Browser mode: no system dialogs, the built-in browser instead.
  await expect(page.getByRole('button', { name: 'Choose a folder…' })).toHaveCount(0);

  // Step 1: open the folder in the built-in browser, add it, use its CSV as the manifest.
  await page.getByLabel('Type a path').fill(folder.current.dir);
  await page.getByRole('button', { name: 'Open in the browser below' }).click();
  const browser = page.getByRole('region', { name: 'Browse this computer' });
  await expect(browser.getByText(folder.current.files.stereo)).toBeVisible();
  await expect(browser.getByRole('listitem').filter({ hasText: 'notes.txt' })).toContainText('Not imported');
  await browser.getByRole('button', { name: 'Use manifest.csv as the manifest' }).click();
  await expect(page.getByLabel('Manifest', { exact: true })).toHaveValue(folder.current.manifestPath);
  await browser.getByRole('button', { name: /^Add this folder/ }).click();
  await expect(page.getByRole('list', { name: 'Chosen for import' })).toContainText(folder.current.dir);
  await expect(page.getByLabel('Time zone of local times')).not.toHaveValue('');
  await page.getByLabel('Time zone of local times').fill('Europe/Berlin');
  await page.getByRole('checkbox', { name: 'Communication coach' }).uncheck();
  await page.getByText("The manifest's format, and a template").click();
  await expect(page.getByLabel('Manifest template')).toContainText('file,participant,recorded_at,session');
  await checkA11y(page, 'import, step 1');
  await shoot(page, 'import-1-choose');

  // Step 2: the preview, with the refused files' reasons.
  await page.getByRole('button', { name: 'Preview the import' }).click();
  await expect(page.getByRole('heading', { name: /Step 2 of 3/ })).toBeFocused();
  await expect(page.getByText(/14 files \(.*\): 10 files will be sent/)).toBeVisible({ timeout: 60_000 });
  const refused = page.locator('.reason-list').filter({ hasText: 'Refused: never sent (3)' });
  await expect(refused.getByRole('row', { name: new RegExp(folder.current.files.short) })).toContainText(
    'requires at least 30 s',
  );
  await expect(refused.getByRole('row', { name: new RegExp(folder.current.files.stereo) })).toContainText(
    '2 channels',
  );
  await expect(refused.getByRole('row', { name: new RegExp(folder.current.files.stereo) })).toContainText(
    'Switch on conversion',
  );
  await expect(page.getByRole('columnheader', { name: 'Line', exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`^${folder.current.missingLine} `) })).toContainText(
    'does not exist',
  );
  await expect(page.getByText(/New participants \(4\):/)).toBeVisible();
  // The files left out are named, not only counted.
  await expect(page.getByText(/2 files were left out because .*: .*notes\.txt/)).toBeVisible();
  await checkA11y(page, 'import, step 2 (preview)');
  await shoot(page, 'import-2-preview');

  // The conversion switch previews again: the stereo file becomes "convert and upload".
  await page
    .getByRole('checkbox', { name: /Convert to mono 16 kHz WAV what the service cannot take/ })
    .check();
  await expect(page.getByText(/14 files \(.*\): 11 files will be sent/)).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.reason-list').filter({ hasText: 'Refused: never sent (2)' })).toBeVisible();
  await page
    .getByRole('group', { name: 'Show files by action' })
    .getByRole('button', { name: /Convert and upload/ })
    .click();
  const files = page.getByRole('grid', { name: /Files of the preview: Convert and upload/ });
  await expect(files.getByRole('row', { name: new RegExp(folder.current.files.stereo) })).toContainText(
    'Convert and upload',
  );
  await files.getByRole('row', { name: new RegExp(folder.current.files.stereo) }).click();
  await expect(page.locator('.plan-detail')).toContainText('the original file is never changed');
  await shoot(page, 'import-2-preview-converted');

  // Step 3: cost, accounts, start.
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
  await expect(page.getByText('Uploads this batch needs')).toBeVisible();
  await expect(page.locator('.estimate .stat').first()).toContainText('11');
  await expect(page.getByRole('checkbox', { name: 'Create 4 service accounts now' })).toBeChecked();
  // The default label dates the batch as everything else does: YYYY-MM-DD.
  await expect(page.getByLabel('Batch label')).toHaveValue(/, \d{4}-\d{2}-\d{2}$/);
  await page.getByLabel('Batch label').fill('March sessions');
  await checkA11y(page, 'import, step 3 (confirm)');
  await shoot(page, 'import-3-confirm');
  await page.getByRole('button', { name: /Import and start sending \(creates 4 accounts\)/ }).click();

  // The batch monitor: mid-batch, then complete.
  await expect(page.getByRole('heading', { name: /March sessions/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Simulated results (sandbox)')).toBeVisible();
  await shoot(page, 'batch-monitor-running');
  await checkA11y(page, 'batch monitor (running)');
  await expect(batchStatus(page)).toContainText('Complete', { timeout: 120_000 });
  await expect(page.getByRole('progressbar', { name: 'Uploaded: 11 of 11' })).toBeVisible();
  // The files table follows the engine's events on its own: no row is left "processing".
  const batchFiles = page.getByRole('grid', { name: /^Files of this batch/ });
  await expect(batchFiles).not.toContainText('Processing');
  await expect(batchFiles.getByRole('row').filter({ hasText: 'Completed, all 3' })).toHaveCount(11);
  const needs = page.getByRole('region', { name: 'Needs you' });
  await expect(needs.getByRole('row', { name: new RegExp(folder.current.files.short) })).toContainText(
    'Record a longer session',
  );
  await expect(needs.getByText('Duplicates held back (1)')).toBeVisible();
  await shoot(page, 'batch-monitor-complete');
  await checkA11y(page, 'batch monitor (complete)');

  // A held duplicate, sent anyway.
  await needs.getByRole('button', { name: 'Send anyway' }).click();
  await expect(page.getByRole('progressbar', { name: 'Uploaded: 12 of 12' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(batchStatus(page)).toContainText('Complete', { timeout: 60_000 });

  // The study's recordings: filters, search, a row opens the recording.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recordings' }).click();
  await expect(page.getByRole('heading', { name: 'Recordings' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '14 recordings' })).toBeVisible();
  await checkA11y(page, 'recordings');
  await shoot(page, 'recordings');
  await page.getByRole('link', { name: 'Need you' }).click();
  const grid = page.getByRole('grid', { name: /Recordings: Need you/ });
  await expect(grid.getByRole('row')).toHaveCount(3);
  await expect(grid).toContainText('requires at least 30 s');
  await page.getByRole('link', { name: 'All', exact: true }).click();
  await page.getByRole('searchbox', { name: /Search participant/ }).fill('stereo');
  await expect(page.getByRole('grid', { name: /^Recordings\./ }).getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('grid', { name: /^Recordings\./ })).toContainText('converted');
  await shoot(page, 'recordings-search');
});
