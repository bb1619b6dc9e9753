/**
 * Importing a folder again: a file refused before (same audio, same participant) is not added
 * as another "refused locally" row, and the preview says it was refused already; files that sit in a
 * batch imported without starting are named with that batch, which `resume` starts; an import meant to
 * start writes its intent with the batch, so a batch left open by a crash is found and started.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batchProgress, interruptedStarts, moveBatch } from '../../../main/db/repos/batches.repo';
import { commitImport } from '../../../main/import/import-commit';
import { planImport } from '../../../main/import/import-plan';
import type { ImportRequest } from '../../../shared/study';
import { makeWav } from '../../fixtures/audio';
import type { Store } from '../../../main/db/store/types';
import { importDbPerTest } from './study-db';

const dir = mkdtempSync(join(tmpdir(), 'vs-reimport-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (paths: string[]): ImportRequest => ({
  studyId: 1,
  paths,
  filenamePattern: '{participant}_{session}.wav',
  timeZone: 'UTC',
  analyses: ['wellbeing'],
  isolateOldestSpeaker: false,
  convert: false,
});
const folder = join(dir, 'week-1');
mkdirSync(folder);
writeFileSync(join(folder, 'P1_s1.wav'), makeWav({ seconds: 44, speechSeconds: 38, seed: 1 }));
writeFileSync(join(folder, 'P1_s2.wav'), makeWav({ seconds: 12, speechSeconds: 10, seed: 2 }));
const opts = { convertedDir: dir, now: () => Date.parse('2026-11-25T12:00:00Z') };
const studies = importDbPerTest();
const refusedRows = async (store: Store): Promise<number> =>
  (await store.get<{ n: number }>(
    `SELECT count(*) n FROM recordings WHERE upload_state = 'refused_locally'`,
  ))!.n;

describe('importing the same folder again', () => {
  it('a file refused before is said to be refused already and is not added again', async () => {
    const db = await studies.open();
    await commitImport(db, await planImport(db, request([folder])), opts);
    expect(await refusedRows(db.store)).toBe(1);
    const again = await planImport(db, request([folder]));
    const short = again.files.find((f) => f.fileName === 'P1_s2.wav')!;
    expect(short).toMatchObject({ action: 'refused', alreadyRefused: { recordingId: 2, batchId: 1 } });
    expect(again.notices).toContain(
      '1 refused file was already refused in an earlier import (same audio, same participant): it is not added again.',
    );
    const second = await commitImport(db, again, opts);
    expect(second.byState).toEqual({ duplicate: 1 });
    expect(await refusedRows(db.store)).toBe(1);
  }, 120_000);

  it('files waiting in a batch imported without starting are named with it; resume starts that batch', async () => {
    const db = await studies.open();
    const { store } = db;
    const first = await commitImport(db, await planImport(db, request([folder])), opts);
    expect((await batchProgress(store, first.batchId))!.state).toBe('open');
    expect(await interruptedStarts(store, 1)).toEqual([]); // imported without starting: not a crash, left as it is
    const again = await planImport(db, request([folder]));
    expect(again.files.find((f) => f.fileName === 'P1_s1.wav')).toMatchObject({
      action: 'duplicate',
      unstartedBatchId: first.batchId,
    });
    expect(again.notices.join(' ')).toMatch(
      /1 file is already imported in batch 1, which was never started, and will be sent once it is: start that batch/,
    );
    expect(await moveBatch(store, first.batchId, 'resume', 'now')).toBe(true);
    expect((await batchProgress(store, first.batchId))!.state).toBe('running');
    const third = await planImport(db, request([folder]));
    expect(third.files.find((f) => f.fileName === 'P1_s1.wav')!.unstartedBatchId).toBeUndefined();
  }, 120_000);

  it('an import meant to start writes the intent with its batch: left open by a crash, it is found', async () => {
    const db = await studies.open();
    const { store } = db;
    const c = await commitImport(db, await planImport(db, request([folder])), {
      ...opts,
      start: true,
    });
    expect(await interruptedStarts(store, 1)).toEqual([{ id: c.batchId, studyId: 1 }]);
    expect(await interruptedStarts(store, null)).toEqual([{ id: c.batchId, studyId: 1 }]);
    expect(await moveBatch(store, c.batchId, 'start', 'now')).toBe(true);
    expect(await interruptedStarts(store, 1)).toEqual([]);
  }, 120_000);
});
