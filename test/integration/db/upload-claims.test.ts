/**
 * Several workstations on one study's upload queue (uploads.repo.ts, workstations.repo.ts): a queued
 * recording is claimed by one workstation at a time, only by one that holds its file, with a lease the
 * workstation renews while it sends; an upload whose lease ran out becomes uncertain, naming the
 * workstation, and is never queued again. On SQLite and (ENGINE_SUITES) on PGlite; the skipping of
 * rows another transaction holds needs two connections: upload-claims.slow.test.ts on PostgreSQL 15.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  claimNextUpload,
  expireLapsedClaims,
  recoverInterruptedUploads,
  renewClaims,
} from '../../../main/db/repos/uploads.repo';
import { absentHolders, recordHolding, touchWorkstation } from '../../../main/db/repos/workstations.repo';
import type { Store } from '../../../main/db/store/types';
import { storePerTest } from '../../support/test-engine';
import { seedRunningBatch } from '../../support/running-batch';

const AT = '2026-03-02T10:00:00.000Z';
const LONG_AGO = '2000-01-01T00:00:00.000Z';
const LEASE = { leaseSeconds: 60 };
const stores = storePerTest();
let store: Store;

/** A study with one participant (with an account) and a running batch of `n` queued recordings. */
const seed = async (n: number): Promise<number[]> => {
  await seedRunningBatch(store, AT);
  const ids: number[] = [];
  for (let i = 1; i <= n; i++)
    ids.push(
      (await store.get<{ id: number }>(
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
         VALUES (1, 1, 1, ?, ?, 1000, '2026-03-01T09:00:00Z', 'manifest', 'queued', ?) RETURNING id`,
        [`/data/r${i}.wav`, `sha-${i}`, AT],
      ))!.id,
    );
  return ids.map(Number);
};

const holds = async (workstation: string, recordingId: number) => {
  await touchWorkstation(store, workstation);
  await recordHolding(store, { recordingId, workstation, path: `/data/r${recordingId}.wav`, sha256: 'x' });
};
const claim = (workstation: string, exclude: number[] = []) =>
  claimNextUpload(store, AT, 1, { workstation, ...LEASE }, exclude).then((r) => (r ? Number(r.id) : null));
const row = async (id: number) =>
  (await store.get<{
    upload_state: string;
    claimed_by: string | null;
    lease_until: string | null;
    upload_error: string | null;
  }>(`SELECT upload_state, claimed_by, lease_until, upload_error FROM recordings WHERE id = ?`, [id]))!;
const dbNow = async () => (await store.get<{ now: string }>(`SELECT ${store.dialect.nowText} AS now`))!.now;
const lapse = (id: number) => store.run(`UPDATE recordings SET lease_until = ? WHERE id = ?`, [LONG_AGO, id]);

beforeEach(async () => {
  store = await stores.open();
});

describe('claiming an upload', () => {
  it('takes the oldest queued recording whose file this workstation holds, and commits its intent with the claim', async () => {
    const [r1, r2] = await seed(2);
    await holds('ws-b', r1!);
    await holds('ws-a', r2!);
    expect(await claim('ws-a')).toBe(r2);
    const claimed = await row(r2!);
    expect(claimed.upload_state).toBe('uploading');
    expect(claimed.claimed_by).toBe('ws-a');
    expect(claimed.lease_until! > (await dbNow())).toBe(true);
    const intent = await store.get<{ detail: string }>(
      `SELECT detail FROM event_log WHERE kind = 'upload_intent' AND recording_id = ?`,
      [r2!],
    );
    expect(JSON.parse(intent!.detail)).toMatchObject({ workstation: 'ws-a', sha256: 'sha-2' });
  });

  it('skips recordings whose file only another workstation holds', async () => {
    const [r1] = await seed(1);
    await holds('ws-b', r1!);
    expect(await claim('ws-a')).toBeNull();
    expect((await row(r1!)).upload_state).toBe('queued');
    expect(await claim('ws-b')).toBe(r1);
  });

  it('takes a recording no workstation was recorded as holding (imported before workstations were)', async () => {
    const [r1] = await seed(1);
    expect(await claim('ws-a')).toBe(r1);
  });

  it('gives each recording to one workstation only, and leaves out the ones asked to', async () => {
    const ids = await seed(3);
    expect(await claim('ws-a', [ids[0]!])).toBe(ids[1]);
    expect(await claim('ws-b')).toBe(ids[0]);
    expect(await claim('ws-a')).toBe(ids[2]);
    expect(await claim('ws-b')).toBeNull();
  });

  it('takes nothing from a batch that is not running', async () => {
    await seed(1);
    await store.run(`UPDATE batches SET state = 'paused' WHERE id = 1`);
    expect(await claim('ws-a')).toBeNull();
  });
});

describe('the lease', () => {
  it('is renewed while the workstation sends, and only for its own claims', async () => {
    const [r1, r2] = await seed(2);
    await claim('ws-a');
    await claim('ws-b');
    await lapse(r1!);
    await lapse(r2!);
    await renewClaims(store, 'ws-a', [r1!, r2!], 60);
    expect((await row(r1!)).lease_until! > (await dbNow())).toBe(true);
    expect((await row(r2!)).lease_until).toBe(LONG_AGO);
  });

  it('run out on an upload another workstation sent makes it uncertain, naming that workstation, and never queued again', async () => {
    const [r1, r2] = await seed(2);
    expect(await claim('ws-a')).toBe(r1);
    expect(await claim('ws-a')).toBe(r2);
    await lapse(r1!);
    expect(await expireLapsedClaims(store, AT, 'ws-b')).toEqual([r1]);
    const lost = await row(r1!);
    expect(lost.upload_state).toBe('upload_uncertain');
    expect(JSON.parse(lost.upload_error!).reason).toContain('workstation ws-a stopped');
    expect((await row(r2!)).upload_state).toBe('uploading'); // its lease holds: it may be in flight
    expect(await claim('ws-b')).toBeNull();
    expect(await expireLapsedClaims(store, AT, 'ws-b')).toEqual([]);
    const interrupted = await store.get<{ detail: string }>(
      `SELECT detail FROM event_log WHERE kind = 'upload_interrupted' AND recording_id = ?`,
      [r1!],
    );
    expect(JSON.parse(interrupted!.detail)).toMatchObject({ workstation: 'ws-a' });
  });

  it('is not expired by the workstation that holds it (its own restart recovers it)', async () => {
    const [r1] = await seed(1);
    await claim('ws-a');
    await lapse(r1!);
    expect(await expireLapsedClaims(store, AT, 'ws-a')).toEqual([]);
  });
});

describe('recovery at start', () => {
  it("recovers this workstation's and lapsed uploads, and leaves another's live claim alone", async () => {
    const [mine, theirs, lapsed, unclaimed] = await seed(4);
    await holds('ws-a', mine!);
    await holds('ws-b', theirs!);
    await holds('ws-c', lapsed!);
    await claim('ws-a');
    await claim('ws-b');
    await claim('ws-c');
    await claim('ws-a'); // the one no workstation holds
    await store.run(`UPDATE recordings SET claimed_by = NULL, lease_until = NULL WHERE id = ?`, [unclaimed!]);
    await lapse(lapsed!);
    const recovered = (await recoverInterruptedUploads(store, AT, 'ws-a')).map(Number).sort((a, b) => a - b);
    expect(recovered).toEqual([mine, lapsed, unclaimed]);
    expect((await row(theirs!)).upload_state).toBe('uploading');
    expect(JSON.parse((await row(mine!)).upload_error!).reason).toContain('Voicescope stopped');
    expect(JSON.parse((await row(lapsed!)).upload_error!).reason).toContain('workstation ws-c');
  });
});

describe('recovering after the database connection came back', () => {
  it('keeps the uploads this process is still sending or has an answer for; makes its other claims uncertain, saying why', async () => {
    const [sending, answered, orphan] = await seed(3);
    for (const id of [sending!, answered!, orphan!]) await holds('ws-a', id);
    for (let i = 0; i < 3; i++) await claim('ws-a');
    const recovered = await recoverInterruptedUploads(
      store,
      AT,
      'ws-a',
      [sending!, answered!],
      'reconnected',
    );
    expect(recovered.map(Number)).toEqual([orphan]);
    expect((await row(sending!)).upload_state).toBe('uploading');
    expect((await row(answered!)).upload_state).toBe('uploading');
    expect((await row(orphan!)).upload_state).toBe('upload_uncertain');
    expect(JSON.parse((await row(orphan!)).upload_error!).reason).toContain(
      'The connection to the study database broke while this workstation was taking this upload',
    );
  });
});

describe('files only an away workstation holds', () => {
  it('are counted under that workstation, with when it was last seen', async () => {
    const [r1, r2, r3] = await seed(3);
    await holds('ws-away', r1!);
    await holds('ws-away', r2!);
    await holds('ws-here', r2!);
    await holds('ws-here', r3!);
    await store.run(`UPDATE workstations SET last_seen_at = ? WHERE name = 'ws-away'`, [LONG_AGO]);
    const absent = await absentHolders(store, 1, 120);
    expect(absent.map((a) => ({ ...a, waiting: Number(a.waiting) }))).toEqual([
      {
        workstation: 'ws-away',
        login: store.engine === 'postgres' ? expect.any(String) : null,
        lastSeenAt: LONG_AGO,
        waiting: 1,
      },
    ]);
    await store.run(`UPDATE recordings SET upload_state = 'uploaded' WHERE id = ?`, [r1!]);
    expect(await absentHolders(store, 1, 120)).toEqual([]);
  });
});
