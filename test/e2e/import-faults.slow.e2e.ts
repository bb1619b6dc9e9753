/**
 * Recovering from sandbox faults, in the window: uploads whose answer is lost become "outcome unknown"
 * with the usage before and after and three explained decisions; a suspended organisation pauses the
 * queue with its reason until the researcher resumes. A long journey (two batches through injected
 * faults, waiting on the engine): `npm run test:slow`. Only setup goes through `host.rpc`.
 */
import { checkA11y, expect, openScreen, shoot, test } from './support/fixtures';
import { setUp, committedBatch, batchStatus, useSmallStudyFolder } from './support/import-journey';

const folder = useSmallStudyFolder();

test('recover from sandbox faults: uploads whose outcome is unknown, then a suspended organisation', async ({
  page,
  host,
}) => {
  const { studyId } = await setUp(host, 'Fault drill');

  // 1. The service stores and charges each upload, then drops the connection: the outcome is unknown.
  const lost = await committedBatch(
    host,
    folder.current,
    studyId,
    [folder.current.files.original, 'P02_w1_20260302.wav', 'P03_w1_20260303.wav'],
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
  await expect(batchStatus(page)).toContainText('Complete', { timeout: 60_000 });
  await expect(page.getByRole('table', { name: 'Files by upload state' })).toContainText(/Uploaded\s*1/);
  await expect(page.getByRole('table', { name: 'Files by upload state' })).toContainText(/Cancelled\s*2/);

  // 2. The organisation is suspended: the credits cannot be read, and sending pauses with the reason.
  const held = await committedBatch(
    host,
    folder.current,
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
  await expect(batchStatus(page)).toContainText('Complete', { timeout: 90_000 });
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
  await expect(batchStatus(page)).toContainText('Complete');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'no horizontal scrolling at 125 %').toBeLessThanOrEqual(0);
  await checkA11y(page, 'batch monitor, dark, 125 %');
  await shoot(page, 'batch-monitor-dark-125');
});
