/**
 * A borderline file (speech near the 30 s check's threshold) that the researcher did not choose to send is
 * stored as never sent, but nothing refused it: after a manifest import committed without starting, the
 * recording, its problem and the batch's counts say it is held for their decision, not "Refused (local
 * check)" (docs/spec-decisions.md, "Speech estimate and the borderline band").
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batchProgress } from '../../../main/db/repos/batches.repo';
import { recordingPage } from '../../../main/db/repos/recordings-view.repo';
import { commitImport } from '../../../main/import/import-commit';
import { planImport } from '../../../main/import/import-plan';
import { importDbPerTest } from './study-db';
import { uploadStateOf } from '../../../renderer/src/lib/labels';
import type { ImportRequest } from '../../../shared/study';
import { makeWav } from '../../fixtures/audio';

const dir = mkdtempSync(join(tmpdir(), 'vs-borderline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const folder = join(dir, 'visit-1');
mkdirSync(folder);
writeFileSync(join(folder, 'near.wav'), makeWav({ seconds: 40, speechSeconds: 27, seed: 3 }));
writeFileSync(join(folder, 'short.wav'), makeWav({ seconds: 12, speechSeconds: 10, seed: 4 }));
const manifestPath = join(folder, 'manifest.csv');
writeFileSync(
  manifestPath,
  'file,participant,recorded_at,session\nnear.wav,P1,2026-11-02T09:00:00Z,v1\nshort.wav,P1,2026-11-03T09:00:00Z,v2\n',
);

const request: ImportRequest = {
  studyId: 1,
  paths: [],
  manifestPath,
  timeZone: 'UTC',
  analyses: ['wellbeing'],
  isolateOldestSpeaker: false,
  convert: false,
};

const studies = importDbPerTest();

describe('a borderline file not chosen for sending', () => {
  it('is held for the researcher after the import is committed, before anything ran', async () => {
    const db = await studies.open();
    const { store } = db;
    const plan = await planImport(db, request);
    expect(plan.files.map((f) => [f.fileName, f.action])).toEqual([
      ['near.wav', 'borderline'],
      ['short.wav', 'refused'],
    ]);
    const { batchId } = await commitImport(db, plan, { convertedDir: dir, now: () => Date.now() });

    const rows = (
      await recordingPage(store, {
        studyId: 1,
        batchId,
        filter: 'all',
        sort: 'file',
        dir: 'asc',
        offset: 0,
        limit: 10,
      })
    ).rows;
    const near = rows.find((r) => r.fileName === 'near.wav')!;
    const short = rows.find((r) => r.fileName === 'short.wav')!;
    expect(uploadStateOf(near)).toEqual({ label: 'Borderline, held', tone: 'warn' });
    expect(near.problem?.summary).toMatch(/^Held, not sent: Borderline: about \d+(\.\d)? s of speech/);
    expect(near.problem?.action).toMatch(/Send anyway/);
    // A file under the band is refused, as before.
    expect(uploadStateOf(short)).toEqual({ label: 'Refused (local check)', tone: 'bad' });
    expect(short.problem?.summary).not.toMatch(/Held/);

    const progress = (await batchProgress(store, batchId))!;
    expect(progress.state).toBe('open');
    expect(progress.uploads).toEqual({ refused_locally: 2 });
    expect(progress.heldBorderline).toBe(1);
  }, 120_000);
});
