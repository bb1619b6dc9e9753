/**
 * JSON held in the study database is decoded once, by its repository, against a schema: a value of the
 * wrong shape is an error naming its table and column, never an object of the wrong shape passed on.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonColumn, StoredValueError } from '../../../main/db/json-column';
import { curatedRecording } from '../../../main/db/repos/curation.repo';
import { recordingFacts } from '../../../main/db/repos/recording-detail.repo';
import { recordingRows } from '../../../main/db/repos/recordings-view.repo';
import type { Store } from '../../../main/db/store/types';
import { readSetting, writeSetting } from '../../../main/db/repos/settings.repo';
import { storePerTest } from '../../support/test-engine';

const VERDICT = {
  status: 'refused',
  findings: [
    {
      code: 'too_short',
      severity: 'refuse',
      message: 'Too short.',
      action: 'Record longer.',
      fixedByConversion: false,
    },
  ],
};

const stores = storePerTest();

/** A test's own store (the run's engine) with one recording holding the given JSON texts. */
const studyWith = async (recording: {
  verdict?: string;
  uploadError?: string;
  provenance?: string;
}): Promise<Store> => {
  const store = await stores.open();
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', 'now')`,
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'S', 1, 'now')`);
  await store.run(`INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P-1', 'now')`);
  await store.run(
    `INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, created_at,
       upload_state, verdict, upload_error, provenance)
     VALUES (1, 1, 1, '/a.wav', 'a', 1, '2026-01-01T00:00:00.000Z', 'manifest', 'now', 'refused_locally', ?, ?, ?)`,
    [recording.verdict ?? null, recording.uploadError ?? null, recording.provenance ?? null],
  );
  return store;
};

describe('a JSON column', () => {
  const column = jsonColumn('things', 'detail', z.object({ n: z.number() }));

  it('gives the decoded value, and null for SQL NULL', async () => {
    expect(column.decode('{"n":1}')).toEqual({ n: 1 });
    expect(column.decodeOrNull(null)).toBeNull();
  });

  it('refuses a value of another shape, naming the table, the column and what is wrong', async () => {
    expect(() => column.decode('{"n":"one"}')).toThrow(StoredValueError);
    expect(() => column.decode('{"n":"one"}')).toThrow(/things\.detail.*n:/);
    expect(() => column.decode('{not json')).toThrow(/things\.detail.*not JSON/);
  });

  it('where values repeat, decodes each text once and still refuses a wrong one', async () => {
    const repeating = jsonColumn('things', 'detail', z.array(z.string()), { valuesRepeat: true });
    expect(repeating.decode('["a"]')).toBe(repeating.decode('["a"]'));
    expect(() => repeating.decode('[1]')).toThrow(StoredValueError);
  });
});

describe("the recordings' JSON columns, as the repositories read them", () => {
  it('a stored verdict, upload error and provenance come back as values', async () => {
    const db = await studyWith({
      verdict: JSON.stringify(VERDICT),
      uploadError: JSON.stringify({ reason: 'The file is gone.' }),
      provenance: JSON.stringify([{ at: 'now', note: 'Reassigned from P-2.', act: 3 }]),
    });
    expect((await recordingFacts(db, 1))?.verdict).toEqual(VERDICT);
    expect((await recordingRows(db, [1]))[0]?.problem?.summary).toBe('Too short.');
    expect(await curatedRecording(db, 1)).toMatchObject({
      verdict: VERDICT,
      uploadError: { reason: 'The file is gone.' },
      provenance: [{ at: 'now', note: 'Reassigned from P-2.', act: 3 }],
    });
  });

  it('a verdict of another shape is an error naming recordings.verdict, in every repository that reads it', async () => {
    const db = await studyWith({ verdict: JSON.stringify({ status: 'fine', findings: [] }) });
    await expect(recordingFacts(db, 1)).rejects.toThrow(/recordings\.verdict/);
    await expect(recordingRows(db, [1])).rejects.toThrow(/recordings\.verdict/);
    await expect(curatedRecording(db, 1)).rejects.toThrow(/recordings\.verdict/);
  });

  it('provenance notes of another shape are an error naming recordings.provenance', async () => {
    const db = await studyWith({ provenance: JSON.stringify([{ note: 'no date, no act' }]) });
    await expect(curatedRecording(db, 1)).rejects.toThrow(/recordings\.provenance/);
  });
});

describe('settings', () => {
  it('are read with the schema their owner gives, and a value of another shape names its key', async () => {
    const store = await studyWith({});
    await writeSetting(store, 'ids', [1, 2]);
    expect(await readSetting(store, 'ids', z.array(z.int()))).toEqual([1, 2]);
    expect(await readSetting(store, 'never written', z.string())).toBeNull();
    await writeSetting(store, 'name', 3);
    await expect(readSetting(store, 'name', z.string())).rejects.toThrow(/settings\.value of name/);
  });
});
