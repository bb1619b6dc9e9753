/**
 * The small frictions of the import's path box: Enter adds the typed path (it does not
 * submit the form), the focus stays in the box for the next path, and a path with nothing there gets a
 * sentence, never a raw error code.
 */
import { paths } from '../../renderer/src/app/paths';
import { expect, openScreen, test } from './support/fixtures';

test('the path box: Enter adds, focus stays, a missing path is told in a sentence', async ({
  page,
  host,
}) => {
  const profile = await host.rpc('profiles.useSandbox', { apiVersion: 'v1.3' });
  if (!profile.ok) throw new Error(profile.error.message);
  const study = await host.rpc('studies.create', { name: 'Frictions', profileId: profile.value.id });
  if (!study.ok) throw new Error(study.error.message);
  await openScreen(page, paths.study(study.value.id).import);
  const box = page.getByLabel('Type a path');

  await box.fill(`${host.incoming}/no-such-folder`);
  await box.press('Enter');
  await expect(
    page.getByText(/^Nothing is at .*no-such-folder: no folder or file of that name\./),
  ).toBeVisible();
  await expect(page.getByText(/ENOENT/)).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Chosen for import' })).toHaveCount(0);
  await expect(box).toBeFocused();

  await box.fill(host.incoming);
  await box.press('Enter');
  await expect(page.getByRole('list', { name: 'Chosen for import' })).toContainText(host.incoming);
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();
  // Still on step 1: Enter did not submit the form.
  await expect(page.getByLabel('Type a path')).toBeVisible();
});
