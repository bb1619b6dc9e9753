/**
 * An import written as a batch (main/db/repos/imports.repo.ts): the recordings go in many to a
 * statement, yet each is stored in the plan's order, under its participant (added once, in the order
 * the plan first names it), and a file that repeats another file of the same import names that file's
 * recording, whichever statement wrote it. On both engines.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../main/db/store/types';
import { insertImportBatch, type NewRecording } from '../../../main/db/repos/imports.repo';
import { freshStudyStore } from '../../support/fresh-study-db';
import { migratedPglite, PGLITE_START_TIMEOUT } from '../../support/pglite';
import { plannedFile } from '../../support/planned-file';

const rec = (i: number, code: string, duplicateOfPath?: string): NewRecording =>
  plannedFile(
    i,
    code,
    duplicateOfPath ? { state: 'duplicate', duplicateOf: { recordingId: null, path: duplicateOfPath } } : {},
  );

const engines: [string, () => Promise<Store>][] = [
  ['SQLite', async () => freshStudyStore()],
  ['PostgreSQL (PGlite)', async () => (await migratedPglite()).store],
];

describe.each(engines)('an import batch of 150 files on %s', (_engine, open) => {
  it(
    'stores every file in order, under its participant, and each repeat names the file it repeats',
    async () => {
      const store = await open();
      await store.run(
        `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
      );
      await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`);
      await store.run(
        `INSERT INTO participants (study_id, code, created_at) VALUES (1, 'OLD', 'x'), (1, 'TWIN', 'x')`,
      );
      // TWIN was entered twice: merged into OLD, its new files go to OLD.
      await store.run(
        `UPDATE participants SET merged_into = (SELECT id FROM participants WHERE code = 'OLD') WHERE code = 'TWIN'`,
      );
      const codes = ['C', 'A', 'OLD', 'B', 'TWIN'];
      const files = Array.from({ length: 150 }, (_, i) =>
        // f70 repeats f65 (not yet written when f70 is planned), f140 repeats f2 (written long before).
        i === 70 ? rec(i, 'A', '/in/f65.wav') : i === 140 ? rec(i, 'B', '/in/f2.wav') : rec(i, codes[i % 5]!),
      );
      const { batchId, byState } = await store.transaction((tx) =>
        insertImportBatch(
          tx,
          {
            studyId: 1,
            at: '2026-01-06T00:00:00.000Z',
            analyses: '[]',
            isolateOldestSpeaker: false,
            label: '',
            convertWav: false,
          },
          files,
        ),
      );
      expect(byState).toEqual({ pending: 148, duplicate: 2 });
      const rows = await store.all<{
        id: number;
        source_path: string;
        code: string;
        duplicate_of: number | null;
      }>(
        `SELECT r.id, r.source_path, p.code, r.duplicate_of FROM recordings r JOIN participants p ON p.id = r.participant_id
       WHERE r.batch_id = ? ORDER BY r.id`,
        [batchId],
      );
      expect(rows.map((r) => r.source_path)).toEqual(files.map((f) => f.sourcePath));
      expect(rows.map((r) => r.code)).toEqual(
        files.map((f) => (f.participantCode === 'TWIN' ? 'OLD' : f.participantCode)),
      );
      const idOf = (path: string) => rows.find((r) => r.source_path === path)!.id;
      expect(rows.filter((r) => r.duplicate_of !== null).map((r) => [r.source_path, r.duplicate_of])).toEqual(
        [
          ['/in/f70.wav', idOf('/in/f65.wav')],
          ['/in/f140.wav', idOf('/in/f2.wav')],
        ],
      );
      const participants = await store.all<{ code: string }>(`SELECT code FROM participants ORDER BY id`);
      expect(participants.map((p) => p.code)).toEqual(['OLD', 'TWIN', 'C', 'A', 'B']);
      await store.close();
    },
    PGLITE_START_TIMEOUT,
  );
});
