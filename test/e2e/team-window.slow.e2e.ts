/**
 * A window journey on a team study (issue 31): a throwaway PostgreSQL 15 server holding one study at two
 * clinics, an owner and a coordinator at each. Each member joins from the window (the first-run screen,
 * then Settings to move from one member to the next, as researchers sharing this workstation would):
 * a wrong password is refused in plain words; each coordinator sees only their clinic's participants
 * and recordings, and is not offered the export or the archive; the owner sees both clinics and filters
 * by one. The workstations on the study database are listed with what each holds and sends. A
 * coordinator's import puts its new participant at their clinic, which the participant screens show. Screens
 * at 100 % and 200 %, light and dark: test-results/screenshots/team-*.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import type { Page } from '@playwright/test';
import { makeWav } from '../fixtures/audio';
import { checkA11y, expect, shoot, test } from './support/fixtures';
import {
  SITE_PARTICIPANTS,
  startTwoSiteTeam,
  teamPassword,
  type TeamLogin,
  type TwoSiteTeam,
} from '../support/two-site-team';

test.use({ firstScreen: true });

let team: TwoSiteTeam;
test.beforeAll(async () => {
  team = await startTwoSiteTeam();
});
test.afterAll(async () => {
  await team?.stop();
});

const join = async (page: Page, login: TeamLogin, password = teamPassword(login)) => {
  const form = page.getByRole('form', { name: 'Connect to a team study' });
  await form.getByLabel('Team study database').fill(team.address);
  await form.getByLabel('Your login').fill(login);
  await form.getByLabel('Your password').fill(password);
  await form.getByRole('button', { name: 'Connect' }).click();
};

/** The study's participants list, with the count the toolbar says. */
const participantsSay = async (page: Page, count: string) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Participants' }).click();
  await expect(page.getByRole('heading', { name: 'Participants', level: 1 })).toBeVisible();
  await expect(page.locator('.toolbar-count')).toHaveText(count);
};

const seesOnly = async (page: Page, shown: readonly string[], hidden: readonly string[]) => {
  for (const code of shown)
    await expect(page.getByRole('gridcell', { name: code, exact: true })).toBeVisible();
  for (const code of hidden)
    await expect(page.getByRole('gridcell', { name: code, exact: true })).toHaveCount(0);
};

const openStudy = async (page: Page) => {
  await expect(page.getByRole('heading', { name: 'Studies', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Two clinics' }).first().click();
  await expect(page.getByRole('heading', { name: /Two clinics/, level: 1 })).toBeVisible();
};

const backToOwnStudy = async (page: Page) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: "Work on this computer's own study" }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to Voicescope' })).toBeVisible();
};

test('two coordinators see only their clinic; the owner sees both and filters by one', async ({ page }) => {
  test.setTimeout(300_000);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(page.getByRole('heading', { name: "Join your team's study" })).toBeVisible();

  // A wrong password: refused in plain words, the window stays where it was.
  await join(page, 'coord_a', 'not-the-password');
  await expect(page.getByRole('alert').filter({ hasText: 'Not connected' })).toContainText(
    'refused the login coord_a (wrong password',
  );
  await expect(page.getByLabel('Your password')).toHaveValue('');
  await shoot(page, 'team-01-first-run-refused');

  // Clinic A's coordinator.
  await join(page, 'coord_a');
  await openStudy(page);
  await expect(page.locator('.team-line')).toHaveText('Team study · coord_a (coordinator)');
  await expect(nav.getByRole('link', { name: 'Import' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Export' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Archive and delete' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import recordings' })).toBeVisible();
  const workstations = page.getByRole('region', { name: 'Workstations' });
  await expect(workstations.getByRole('row', { name: /clinic-a-pc coord_a connected/ })).toBeVisible();
  await shoot(page, 'team-02-coordinator-overview');
  await participantsSay(page, '2 participants');
  await seesOnly(page, SITE_PARTICIPANTS.a, SITE_PARTICIPANTS.b);
  await expect(page.getByLabel('Site')).toHaveCount(0);
  // A coordinator's workstation creates its sites' accounts, so the participants it must create them for are offered.
  await expect(page.getByRole('link', { name: 'No account' })).toBeVisible();
  await checkA11y(page, 'participants, coordinator');
  await shoot(page, 'team-03-coordinator-a-participants');
  await nav.getByRole('link', { name: 'Recordings' }).click();
  await expect(page.locator('.toolbar-count')).toHaveText('2 recordings');

  // Clinic B's coordinator, after Settings took the window back to this computer's own study.
  await backToOwnStudy(page);
  await join(page, 'coord_b');
  await openStudy(page);
  await participantsSay(page, '3 participants');
  await seesOnly(page, SITE_PARTICIPANTS.b, SITE_PARTICIPANTS.a);

  // The owner: both clinics, then one.
  await backToOwnStudy(page);
  await join(page, 'owner_1');
  await openStudy(page);
  await expect(nav.getByRole('link', { name: 'Export' })).toBeVisible();
  await participantsSay(page, '5 participants');
  await seesOnly(page, [...SITE_PARTICIPANTS.a, ...SITE_PARTICIPANTS.b], []);
  await page.getByLabel('Site').selectOption('b');
  await expect(page.locator('.toolbar-count')).toHaveText('3 participants');
  await seesOnly(page, SITE_PARTICIPANTS.b, SITE_PARTICIPANTS.a);
  await checkA11y(page, 'participants, owner, one site');
  await shoot(page, 'team-04-owner-participants-site-b');
  await nav.getByRole('link', { name: 'Recordings' }).click();
  await expect(page.locator('.toolbar-count')).toHaveText('5 recordings');
  await page.getByLabel('Site').selectOption('a');
  await expect(page.locator('.toolbar-count')).toHaveText('2 recordings');

  // The screens at 100 % and 200 %, light and dark.
  for (const [zoom, size] of [
    ['100', { width: 1280, height: 800 }],
    ['200', { width: 640, height: 400 }],
  ] as const) {
    await page.setViewportSize(size);
    for (const [name, hash] of [
      ['overview', `/studies/${team.studyId}`],
      ['participants', `/studies/${team.studyId}/participants`],
      ['settings', '/settings'],
    ] as const) {
      await page.evaluate((h) => {
        location.hash = h;
      }, hash);
      await expect(page.locator('main h1').first()).toBeVisible();
      await expect(page.locator('main .loading')).toHaveCount(0);
      await shoot(page, `team-zoom${zoom}-${name}-light`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await shoot(page, `team-zoom${zoom}-${name}-dark`, { fullPage: false });
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
  await checkA11y(page, 'settings, owner, 200 %');
});

/** The import wizard up to its confirm step: a folder of recordings named `<participant>_<session>.wav`. */
const importUpToConfirm = async (page: Page, dir: string) => {
  await page.getByRole('button', { name: 'Import recordings' }).click();
  await expect(page.getByRole('heading', { name: 'Import recordings' })).toBeVisible();
  await page.getByLabel('Type a path').fill(dir);
  await page.getByRole('button', { name: 'Open in the browser below' }).click();
  await page
    .getByRole('region', { name: 'Browse this computer' })
    .getByRole('button', { name: /^Add this folder/ })
    .click();
  await page.getByRole('radio', { name: 'A pattern in the file names' }).check();
  await page.getByLabel('File-name pattern').fill('{participant}_{session}.wav');
  await page.getByLabel('Time zone of local times').fill('UTC');
  await page.getByRole('button', { name: 'Preview the import' }).click();
  await expect(page.getByText(/New participants \(1\):/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
};

test("a coordinator's import from the window puts new participants at their clinic, shown on the participant screens; the owner chooses", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(joinPath(tmpdir(), 'vs-e2e-team-import-'));
  try {
    writeFileSync(joinPath(dir, 'B-10_w1.wav'), makeWav({ seconds: 42, speechSeconds: 36, seed: 92 }));
    await join(page, 'coord_b');
    await openStudy(page);
    await importUpToConfirm(page, dir);

    // The confirm step: Clinic B, the coordinator's one site, chosen already.
    const site = page.getByLabel('Site of new participants');
    await expect(site).toHaveValue('b');
    await expect(site.locator('option')).toHaveText(['Clinic B (b)']);
    await checkA11y(page, 'import confirm, coordinator');
    await shoot(page, 'team-05-coordinator-import-confirm');
    await page.getByRole('button', { name: /^Import (without starting|the refused files)/ }).click();
    await expect(page.getByText(/Batch created: 1 file/)).toBeVisible({ timeout: 60_000 });

    await participantsSay(page, '4 participants');
    await expect(page.getByRole('columnheader', { name: 'Site' })).toBeVisible();
    await expect(page.getByRole('row', { name: /^B-10 Clinic B \(b\)/ })).toBeVisible();
    await checkA11y(page, 'participants with their site, coordinator');
    await shoot(page, 'team-06-coordinator-participants-with-site');
    await page.getByRole('gridcell', { name: 'B-10', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Participant B-10', level: 1 })).toBeVisible();
    await expect(page.locator('.stat').filter({ hasText: 'Site' })).toContainText('Clinic B (b)');

    // The owner works at every site: the import waits until one is chosen.
    writeFileSync(joinPath(dir, 'C-01_w1.wav'), makeWav({ seconds: 42, speechSeconds: 36, seed: 93 }));
    await backToOwnStudy(page);
    await join(page, 'owner_1');
    await openStudy(page);
    await importUpToConfirm(page, dir);
    const ownerSite = page.getByLabel('Site of new participants');
    await expect(ownerSite).toHaveValue('');
    await expect(ownerSite.locator('option')).toHaveText([
      'Choose a site…',
      'Clinic A (a)',
      'Clinic B (b)',
      'Main site (main)',
    ]);
    await expect(page.getByRole('button', { name: 'Import without starting' })).toBeDisabled();
    await expect(page.getByText('Choose the site of the new participants to import.')).toBeVisible();
    await checkA11y(page, 'import confirm, owner, no site chosen');
    await shoot(page, 'team-07-owner-import-confirm-choose-site');
    await ownerSite.selectOption('a');
    // B-10's file again, held as a duplicate, and C-01's.
    await page.getByRole('button', { name: 'Import without starting' }).click();
    await expect(page.getByText(/Batch created: 2 files/)).toBeVisible({ timeout: 60_000 });
    await participantsSay(page, '7 participants');
    await expect(page.getByRole('row', { name: /^C-01 Clinic A \(a\)/ })).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
