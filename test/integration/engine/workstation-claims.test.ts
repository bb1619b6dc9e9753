/**
 * The runner as one workstation among several (main/engine/workstation-claims.ts): its heartbeat renews
 * the claims of the uploads it is sending and makes another workstation's lapsed upload uncertain; a
 * file another workstation holds is held here too only when the same path has the same content, and
 * a file not found is not hashed again before LOOK_AGAIN_MS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeEach, expect, it } from 'vitest';
import type { ApiClient } from '../../../main/api/client';
import { claimNextUpload } from '../../../main/db/repos/uploads.repo';
import { recordHolding, touchWorkstation } from '../../../main/db/repos/workstations.repo';
import type { SqlValue, Store } from '../../../main/db/store/types';
import { createRunnerCore, type RunnerCore } from '../../../main/engine/runner-core';
import { findHeldElsewhere, heartbeat, LOOK_AGAIN_MS } from '../../../main/engine/workstation-claims';
import { storePerTest } from '../../support/test-engine';
import { seedRunningBatch } from '../../support/running-batch';

const AT = '2026-03-02T10:00:00.000Z';
const LONG_AGO = '2000-01-01T00:00:00.000Z';
const dir = mkdtempSync(join(tmpdir(), 'vs-held-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stores = storePerTest();
let store: Store;
let clock: number;

const CONTENT = Buffer.from('RIFF....WAVE the recording as imported');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A running batch of queued recordings, each file at its path with the imported content, held by ws-a. */
const seed = async (n: number): Promise<number[]> => {
  await seedRunningBatch(store, AT);
  await touchWorkstation(store, 'ws-a');
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const path = join(dir, `r${i}.wav`);
    const id = Number(
      (await store.get<{ id: number }>(
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
         VALUES (1, 1, 1, ?, ?, ?, '2026-03-01T09:00:00Z', 'manifest', 'queued', ?) RETURNING id`,
        [path, sha(CONTENT), CONTENT.length, AT],
      ))!.id,
    );
    await recordHolding(store, { recordingId: id, workstation: 'ws-a', path, sha256: sha(CONTENT) });
    ids.push(id);
  }
  return ids;
};

const runner = (workstation: string): RunnerCore =>
  createRunnerCore({ store, client: {} as ApiClient, profileId: 1, workstation, now: () => clock });
const holders = async (id: number) =>
  (
    await store.all<{ workstation: string }>(
      `SELECT workstation FROM recording_files WHERE recording_id = ? ORDER BY workstation`,
      [id],
    )
  ).map((r) => r.workstation);
const leaseOf = async (id: number) =>
  (await store.get<{ lease_until: string }>(`SELECT lease_until FROM recordings WHERE id = ?`, [id]))!
    .lease_until;

beforeEach(async () => {
  store = await stores.open();
  clock = Date.parse(AT);
});

it('holds a file another workstation holds when the same path has the same content', async () => {
  const [id] = await seed(1);
  writeFileSync(join(dir, 'r1.wav'), CONTENT);
  expect(await findHeldElsewhere(runner('ws-b'))).toBe(true);
  expect(await holders(id!)).toEqual(['ws-a', 'ws-b']);
});

it('does not hold a file of the same size with other content, and looks again only after a while', async () => {
  const [id] = await seed(1);
  const other = Buffer.from(CONTENT);
  other[0] = 0;
  writeFileSync(join(dir, 'r1.wav'), other);
  const r = runner('ws-b');
  expect(await findHeldElsewhere(r)).toBe(false);
  writeFileSync(join(dir, 'r1.wav'), CONTENT); // the right file appears (a drive connected)
  expect(await findHeldElsewhere(r)).toBe(false); // not looked at again yet
  clock += LOOK_AGAIN_MS;
  expect(await findHeldElsewhere(r)).toBe(true);
  expect(await holders(id!)).toEqual(['ws-a', 'ws-b']);
});

it('looks further than the files it looked for lately', async () => {
  const ids = await seed(22);
  writeFileSync(join(dir, 'r22.wav'), CONTENT); // the 21 before it are not on this workstation
  for (let i = 1; i <= 21; i++) rmSync(join(dir, `r${i}.wav`), { force: true });
  const r = runner('ws-b');
  expect(await findHeldElsewhere(r)).toBe(false);
  expect(await findHeldElsewhere(r)).toBe(true);
  expect(await holders(ids[21]!)).toEqual(['ws-a', 'ws-b']);
});

it('renews the claims of the uploads in flight and makes another workstation’s lapsed upload uncertain', async () => {
  const [mine, theirs] = await seed(2);
  await claimNextUpload(store, AT, 1, { workstation: 'ws-a', leaseSeconds: 60 });
  await recordHolding(store, { recordingId: theirs!, workstation: 'ws-c', path: 'x', sha256: 'y' });
  await touchWorkstation(store, 'ws-c');
  await store.run(`DELETE FROM recording_files WHERE recording_id = ? AND workstation = 'ws-a'`, [theirs!]);
  await claimNextUpload(store, AT, 1, { workstation: 'ws-c', leaseSeconds: 60 });
  await store.run(`UPDATE recordings SET lease_until = ?`, [LONG_AGO]);
  const r = runner('ws-a');
  r.inFlight.set(mine!, Promise.resolve());
  await heartbeat(r);
  expect((await leaseOf(mine!)) > AT).toBe(true);
  const lapsed = await store.get<{ upload_state: string; upload_error: string }>(
    `SELECT upload_state, upload_error FROM recordings WHERE id = ?`,
    [theirs!],
  );
  expect(lapsed!.upload_state).toBe('upload_uncertain');
  expect(JSON.parse(lapsed!.upload_error).reason).toContain('The workstation ws-c stopped');
  const seen = await store.get<{ last_seen_at: string }>(
    `SELECT last_seen_at FROM workstations WHERE name = 'ws-a'`,
  );
  expect(seen!.last_seen_at > LONG_AGO).toBe(true);
});

it('looks again at the next step for a file it found but could not write down (a locked database)', async () => {
  const [id] = await seed(1);
  writeFileSync(join(dir, 'r1.wav'), CONTENT);
  let refuse = true;
  const locked: Store = Object.assign(Object.create(store) as Store, {
    run: (sql: string, params?: readonly SqlValue[]) => {
      if (refuse && sql.includes('INSERT INTO recording_files')) {
        refuse = false;
        return Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
      }
      return store.run(sql, params);
    },
  });
  const r = createRunnerCore({
    store: locked,
    client: {} as ApiClient,
    profileId: 1,
    workstation: 'ws-b',
    now: () => clock,
  });
  await expect(findHeldElsewhere(r)).rejects.toThrow(/locked/);
  expect(await findHeldElsewhere(r)).toBe(true); // the same moment: not ten minutes later
  expect(await holders(id!)).toEqual(['ws-a', 'ws-b']);
});
