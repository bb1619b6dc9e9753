/**
 * The usage page's counters per study: an upload whose outcome was uncertain and that the researcher
 * confirmed reached the service ("mark uploaded elsewhere") counts as accepted (it was charged), like one
 * the service accepted; one given up ("cancel") does not, nor one still uncertain.
 */
import { expect, it } from 'vitest';
import { resolveUncertain } from '../../../main/db/repos/uploads.repo';
import { usageByStudy } from '../../../main/db/repos/usage.repo';
import { storePerTest } from '../../support/test-engine';

const stores = storePerTest();

it('counts recovered uploads among the accepted ones', async () => {
  const store = await stores.open();
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'S', 1, 'now')`);
  await store.run(`INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', 'now')`);
  const add = (...row: (string | null)[]) =>
    store.run(
      `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, upload_error, created_at)
       VALUES (1, 1, ?, ?, 1, 'now', 'manifest', ?, ?, 'now')`,
      row,
    );
  const uncertain = JSON.stringify({ reason: 'The connection broke after the file was sent.' });
  await add('/a/1.wav', 'h1', 'uploaded', null);
  await add('/a/2.wav', 'h2', 'upload_uncertain', uncertain);
  await add('/a/3.wav', 'h3', 'upload_uncertain', uncertain);
  await add('/a/4.wav', 'h4', 'upload_uncertain', uncertain);
  expect((await usageByStudy(store, 1))[0]).toMatchObject({ uploadsAccepted: 1, uploadsUncertain: 3 });
  expect(await resolveUncertain(store, 2, 'mark_uploaded_elsewhere')).toBe(true);
  expect(await resolveUncertain(store, 3, 'cancel')).toBe(true);
  expect((await usageByStudy(store, 1))[0]).toMatchObject({
    uploadsAccepted: 2,
    uploadsUncertain: 1,
    queued: 0,
  });
});
