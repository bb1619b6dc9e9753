/**
 * Import and batches as a researcher meets them, in browser mode against the built-in sandbox:
 * - a folder of generated recordings with a manifest goes through the wizard (built-in file browser,
 *   preview with a refused file's reason, the conversion switch turning a stereo file into "convert and
 *   upload", credit estimate, accounts), then the batch monitor shows it run and complete, a held
 *   duplicate is sent anyway, and the recordings page filters and searches the study;
 * - recovering from sandbox faults: uploads whose answer is lost become "outcome unknown" with the
 *   usage before and after and three explained decisions; a suspended organisation pauses the queue
 *   with its reason until the researcher resumes.
 * Only setup goes through `host.rpc`; every journey step is done in the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { makeSmallStudyFolder, type SmallStudyFolder } from '../support/small-study-folder';
import { checkA11y, expect, openScreen, shoot, test, type Host } from './support/fixtures';
import { QUICK_ENGINE_SETTINGS } from './support/study-with-results';

const ok = async <T>(p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> => {
  const r = await p;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

let root: string;
let folder: SmallStudyFolder;
test.beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vs-e2e-import-'));
  folder = makeSmallStudyFolder(root);
});
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A sandbox study with the engine tuned for tests (polls every 5 s, uploads unthrottled). */
const setUp = async (host: Host, name: string) => {
  await ok(host.rpc('settings.save', QUICK_ENGINE_SETTINGS));
  const profile = await ok(host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' }));
  const study = await ok(host.rpc('studies.create', { name, profileId: profile.id }));
  return { studyId: study.id, profileId: profile.id };
};

/** A batch of the given files committed with a file-name pattern, accounts created, not started. */
const committedBatch = async (host: Host, studyId: number, files: readonly string[], label: string) => {
  const plan = await ok(
    host.rpc('imports.preview', {
      studyId,
      paths: files.map((f) => join(folder.dir, f)),
      filenamePattern: folder.pattern,
      timeZone: 'Europe/Berlin',
      analyses: ['wellbeing', 'parkinsons'],
      isolateOldestSpeaker: false,
      convert: false,
    }),
  );
  const commit = await ok(host.rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label }));
  await ok(host.rpc('participants.createAccounts', { studyId }));
  return commit.batchId;
};

const status = (page: Page) => page.locator('.batch-status');

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
  await page.getByLabel('Type a path').fill(folder.dir);
  await page.getByRole('button', { name: 'Open in the browser below' }).click();
  const browser = page.getByRole('region', { name: 'Browse this computer' });
  await expect(browser.getByText(folder.files.stereo)).toBeVisible();
  await expect(browser.getByRole('listitem').filter({ hasText: 'notes.txt' })).toContainText('Not imported');
  await browser.getByRole('button', { name: 'Use manifest.csv as the manifest' }).click();
  await expect(page.getByLabel('Manifest', { exact: true })).toHaveValue(folder.manifestPath);
  await browser.getByRole('button', { name: /^Add this folder/ }).click();
  await expect(page.getByRole('list', { name: 'Chosen for import' })).toContainText(folder.dir);
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
  await expect(refused.getByRole('row', { name: new RegExp(folder.files.short) })).toContainText(
    'requires at least 30 s',
  );
  await expect(refused.getByRole('row', { name: new RegExp(folder.files.stereo) })).toContainText(
    '2 channels',
  );
  await expect(refused.getByRole('row', { name: new RegExp(folder.files.stereo) })).toContainText(
    'Switch on conversion',
  );
  await expect(page.getByRole('columnheader', { name: 'Line', exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`^${folder.missingLine} `) })).toContainText(
    'does not exist',
  );
  await expect(page.getByText(/New participants \(4\):/)).toBeVisible();
  // The files left out are named, not only counted.
  await expect(page.getByText(/2 files were left out because .*: .*notes\.txt/)).toBeVisible();
  await checkA11y(page, 'import, step 2 (preview)');
  await shoot(page, 'import-2-preview');

  // The conversion switch previews again: the stereo file becomes "convert and upload".
  await page.getByRole('checkbox', { name: /Convert stereo or low-rate WAV/ }).check();
  await expect(page.getByText(/14 files \(.*\): 11 files will be sent/)).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.reason-list').filter({ hasText: 'Refused: never sent (2)' })).toBeVisible();
  await page
    .getByRole('group', { name: 'Show files by action' })
    .getByRole('button', { name: /Convert and upload/ })
    .click();
  const files = page.getByRole('grid', { name: /Files of the preview: Convert and upload/ });
  await expect(files.getByRole('row', { name: new RegExp(folder.files.stereo) })).toContainText(
    'Convert and upload',
  );
  await files.getByRole('row', { name: new RegExp(folder.files.stereo) }).click();
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
  await expect(status(page)).toContainText('Complete', { timeout: 120_000 });
  await expect(page.getByRole('progressbar', { name: 'Uploaded: 11 of 11' })).toBeVisible();
  // The files table follows the engine's events on its own: no row is left "processing".
  const batchFiles = page.getByRole('grid', { name: /^Files of this batch/ });
  await expect(batchFiles).not.toContainText('Processing');
  await expect(batchFiles.getByRole('row').filter({ hasText: 'Completed, all 3' })).toHaveCount(11);
  const needs = page.getByRole('region', { name: 'Needs you' });
  await expect(needs.getByRole('row', { name: new RegExp(folder.files.short) })).toContainText(
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
  await expect(status(page)).toContainText('Complete', { timeout: 60_000 });

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

test('recover from sandbox faults: uploads whose outcome is unknown, then a suspended organisation', async ({
  page,
  host,
}) => {
  const { studyId } = await setUp(host, 'Fault drill');

  // 1. The service stores and charges each upload, then drops the connection: the outcome is unknown.
  const lost = await committedBatch(
    host,
    studyId,
    [folder.files.original, 'P02_w1_20260302.wav', 'P03_w1_20260303.wav'],
    'Lost answers',
  );
  await host.sandboxAdmin('PUT', 'scenario', {
    preset: 'fast',
    faults: { upload: { dropAfterProcessing: 1 } },
  });
  await openScreen(page, `/studies/${studyId}/batches/${lost}`);
  await page.getByRole('button', { name: 'Check credits and start' }).click();
  await expect(page.getByText(/This batch uses 3 uploads/)).toBeVisible();
  await page.getByRole('button', { name: 'Start sending' }).click();
  const needs = page.getByRole('region', { name: 'Needs you' });
  await expect(needs.getByText('Outcome unknown (3)')).toBeVisible({ timeout: 60_000 });
  const cards = needs.locator('.uncertain');
  await expect(cards).toHaveCount(3);
  await expect(cards.first().getByRole('table')).toContainText('Before');
  await expect(cards.first().getByRole('table')).toContainText('uploads left');
  await expect(cards.first()).toContainText(/The counter fell by \d+/, { timeout: 30_000 });
  await expect(cards.first()).toContainText('you are charged twice');
  await expect(needs).not.toContainText('Retry what is safe');
  await host.sandboxAdmin('PUT', 'scenario', { preset: 'fast' });
  await shoot(page, 'batch-needs-you-uncertain');
  await checkA11y(page, 'batch monitor (needs you: uncertain uploads)');

  await cards.nth(0).getByRole('button', { name: 'Send it again' }).click();
  await expect(cards).toHaveCount(2);
  await cards.nth(0).getByRole('button', { name: 'Give it up' }).click();
  await expect(cards).toHaveCount(1);
  await cards.nth(0).getByRole('button', { name: 'It was uploaded elsewhere' }).click();
  await expect(cards).toHaveCount(0);
  await expect(status(page)).toContainText('Complete', { timeout: 60_000 });
  await expect(page.getByRole('table', { name: 'Files by upload state' })).toContainText(/Uploaded\s*1/);
  await expect(page.getByRole('table', { name: 'Files by upload state' })).toContainText(/Cancelled\s*2/);

  // 2. The organisation is suspended: the credits cannot be read, and sending pauses with the reason.
  const held = await committedBatch(
    host,
    studyId,
    ['P04_w1_20260304.wav', 'P01_w2_20260305.wav'],
    'During suspension',
  );
  const org = (await host.sandboxAdmin('GET', 'organisations/demo')) as Record<string, unknown>;
  await host.sandboxAdmin('PUT', 'organisations/demo', { ...org, access: 'suspended' });
  await openScreen(page, `/studies/${studyId}/batches/${held}`);
  await page.getByRole('button', { name: 'Check credits and start' }).click();
  await expect(page.getByRole('group', { name: 'Credits could not be read' })).toContainText('suspended');
  await page.getByRole('button', { name: 'Start without the credit check' }).click();
  const banner = page.locator('.queue-banner');
  await expect(banner).toContainText('Sending is paused for every batch of this service', {
    timeout: 60_000,
  });
  await expect(banner).toContainText("Your organisation's access to the service is suspended.");
  await expect(page.getByRole('table', { name: 'Files by upload state' })).toContainText(/Queued\s*2/);
  await shoot(page, 'batch-queue-paused');
  await checkA11y(page, 'batch monitor (queue paused)');

  await host.sandboxAdmin('PUT', 'organisations/demo', { ...org, access: 'active' });
  await banner.getByRole('button', { name: 'Resume sending' }).click();
  await expect(banner).toHaveCount(0);
  await expect(status(page)).toContainText('Complete', { timeout: 90_000 });
  await expect(page.getByRole('progressbar', { name: 'Uploaded: 2 of 2' })).toBeVisible();
  await expect(
    page
      .getByRole('grid', { name: /^Files of this batch/ })
      .getByRole('row')
      .filter({ hasText: 'Completed, all 2' }),
  ).toHaveCount(2);
  await shoot(page, 'batch-recovered');

  // The batches list shows both.
  await page.getByRole('link', { name: 'Batches', exact: true }).first().click();
  await expect(page.getByRole('link', { name: 'During suspension' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Lost answers' })).toBeVisible();
  await checkA11y(page, 'batches');
  await shoot(page, 'batches');

  // Readable in the dark theme at 125 %: no sideways scrolling of the page.
  await page.getByLabel('Theme').selectOption('dark');
  await page.evaluate(() => {
    document.body.style.zoom = '1.25';
  });
  await page.getByRole('link', { name: 'Lost answers' }).click();
  await expect(status(page)).toContainText('Complete');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'no horizontal scrolling at 125 %').toBeLessThanOrEqual(0);
  await checkA11y(page, 'batch monitor, dark, 125 %');
  await shoot(page, 'batch-monitor-dark-125');
});
