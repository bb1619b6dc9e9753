/** A study written straight into the database (fast), with a converted copy per recording in the workspace, for the privacy tests. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../../../main/db/store/types';
import { insertedId } from '../../support/inserted-id';

let seq = 0;

/** Writes the study through the store (either engine); its profile 'Lab' is made by the first study. */
export const seedStudy = async (
  q: Queryable,
  o: {
    workspaceDir: string;
    name: string;
    codes: readonly string[];
    recordingsPer?: number;
    batchState?: string;
  },
) => {
  const at = '2026-03-01T09:00:00.000Z';
  const profile =
    (await q.get<{ id: number }>(`SELECT id FROM service_profiles WHERE name = 'Lab'`))?.id ??
    (await insertedId(
      q,
      `INSERT INTO service_profiles (name, base_url, api_version, key_ref, created_at) VALUES ('Lab', 'https://api.example.org', 'v1.3', 'key-file:1', ?)`,
      [at],
    ));
  const studyId = await insertedId(q, `INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, ?)`, [
    o.name,
    profile,
    at,
  ]);
  const batchId = await insertedId(
    q,
    `INSERT INTO batches (study_id, created_at, analyses, state) VALUES (?, ?, '["wellbeing"]', ?)`,
    [studyId, at, o.batchState ?? 'finished'],
  );
  const converted = join(o.workspaceDir, 'converted', `study-${studyId}`);
  mkdirSync(converted, { recursive: true });
  for (const code of o.codes) {
    const pid = await insertedId(
      q,
      `INSERT INTO participants (study_id, code, account_id, created_at) VALUES (?, ?, ?, ?)`,
      [studyId, code, `acc-${++seq}`, at],
    );
    for (let i = 0; i < (o.recordingsPer ?? 2); i++) {
      const file = join(converted, `${code}-${i}.wav`);
      writeFileSync(file, Buffer.alloc(1_000, i));
      const rid = await insertedId(
        q,
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, upload_path, converted, created_at)
         VALUES (?, ?, ?, ?, ?, 1000, ?, 'manifest', 'uploaded', ?, ?, 1, ?)`,
        [studyId, pid, batchId, `/data/${code}_${i}.wav`, `sha-${++seq}`, at, `rec-${seq}`, file, at],
      );
      await q.run(
        `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, 'wellbeing', 'completed', ?, ?)`,
        [rid, at, at],
      );
      await q.run(
        `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num) VALUES (?, 'wellbeing.stress', ?, ?, 0.5)`,
        [rid, pid, at],
      );
    }
  }
  await q.run(`INSERT INTO event_log (at, kind, study_id, detail) VALUES (?, 'batch_created', ?, '{}')`, [
    at,
    studyId,
  ]);
  return { studyId, batchId, converted };
};
