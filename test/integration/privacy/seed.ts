/** A study written straight into the database (fast), with a converted copy per recording in the workspace, for the privacy tests. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../../main/db/open';

let seq = 0;

export const seedStudy = (
  db: Db,
  o: {
    workspaceDir: string;
    name: string;
    codes: readonly string[];
    recordingsPer?: number;
    batchState?: string;
  },
) => {
  const at = '2026-03-01T09:00:00.000Z';
  let profile = db.prepare(`SELECT id FROM service_profiles WHERE name = 'Lab'`).get() as
    { id: number } | undefined;
  if (!profile) {
    db.prepare(
      `INSERT INTO service_profiles (name, base_url, api_version, key_ref, created_at) VALUES ('Lab', 'https://api.example.org', 'v1.3', 'key-file:1', ?)`,
    ).run(at);
    profile = db.prepare(`SELECT id FROM service_profiles WHERE name = 'Lab'`).get() as { id: number };
  }
  const studyId = Number(
    db
      .prepare(`INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, ?)`)
      .run(o.name, profile.id, at).lastInsertRowid,
  );
  const batchId = Number(
    db
      .prepare(
        `INSERT INTO batches (study_id, created_at, analyses, state) VALUES (?, ?, '["wellbeing"]', ?)`,
      )
      .run(studyId, at, o.batchState ?? 'finished').lastInsertRowid,
  );
  const converted = join(o.workspaceDir, 'converted', `study-${studyId}`);
  mkdirSync(converted, { recursive: true });
  for (const code of o.codes) {
    const pid = Number(
      db
        .prepare(`INSERT INTO participants (study_id, code, account_id, created_at) VALUES (?, ?, ?, ?)`)
        .run(studyId, code, `acc-${++seq}`, at).lastInsertRowid,
    );
    for (let i = 0; i < (o.recordingsPer ?? 2); i++) {
      const file = join(converted, `${code}-${i}.wav`);
      writeFileSync(file, Buffer.alloc(1_000, i));
      const rid = Number(
        db
          .prepare(
            `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, upload_path, converted, created_at)
         VALUES (?, ?, ?, ?, ?, 1000, ?, 'manifest', 'uploaded', ?, ?, 1, ?)`,
          )
          .run(studyId, pid, batchId, `/data/${code}_${i}.wav`, `sha-${++seq}`, at, `rec-${seq}`, file, at)
          .lastInsertRowid,
      );
      db.prepare(
        `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, 'wellbeing', 'completed', ?, ?)`,
      ).run(rid, at, at);
      db.prepare(
        `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num) VALUES (?, 'wellbeing.stress', ?, ?, 0.5)`,
      ).run(rid, pid, at);
    }
  }
  db.prepare(`INSERT INTO event_log (at, kind, study_id, detail) VALUES (?, 'batch_created', ?, '{}')`).run(
    at,
    studyId,
  );
  return { studyId, batchId, converted };
};
