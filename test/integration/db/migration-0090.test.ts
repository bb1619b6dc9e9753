/**
 * Migration 0090: the analysis state `unanswered`, the workstation's moment of acceptance, and the
 * account intent. The analyses table is rebuilt (SQLite cannot change a CHECK in place): its rows,
 * indexes and triggers must survive exactly.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';

const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === 90) - 1]!.version;
const AT = '2026-03-02T10:00:00.000Z';

const seeded = () => {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS, previous);
  db.exec(`
    INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', '${AT}');
    INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'S', 1, '${AT}');
    INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', '${AT}');
    INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source,
                            upload_state, upload_intent_at, uploaded_at, created_at)
      VALUES (1, 1, 1, '/a.wav', 'aa', 1, '${AT}', 'manifest', 'uploaded', '2026-03-02T10:05:00.000Z', '2026-03-02T09:59:00.000Z', '${AT}');
    INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (1, 'wellbeing', 'processing', '${AT}', '${AT}');
    INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (1, 'parkinsons', 'completed', '${AT}');
  `);
  return db;
};

const schemaOf = (db: Database.Database, table: string) =>
  (
    db
      .prepare(
        `SELECT type, name FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') ORDER BY name`,
      )
      .all(table) as { type: string; name: string }[]
  ).map((r) => `${r.type}:${r.name}`);

describe('migration 0090 (end states and account intents)', () => {
  it('keeps every analysis, index and trigger, and allows the state unanswered', () => {
    const db = seeded();
    const before = db.prepare(`SELECT * FROM analyses ORDER BY type`).all();
    const dependents = schemaOf(db, 'analyses');
    migrate(db, MIGRATIONS, 90);
    expect(db.prepare(`SELECT * FROM analyses ORDER BY type`).all()).toEqual(before);
    expect(schemaOf(db, 'analyses')).toEqual(dependents);
    db.prepare(
      `UPDATE analyses SET state = 'unanswered', next_poll_at = NULL WHERE type = 'wellbeing'`,
    ).run();
    expect(() => db.prepare(`UPDATE analyses SET state = 'lost' WHERE type = 'wellbeing'`).run()).toThrow(
      /CHECK/,
    );
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('participant figures still follow the analyses (migration 0040 triggers work on the new table)', () => {
    const db = seeded();
    migrate(db, MIGRATIONS, 90);
    db.prepare(`UPDATE analyses SET state = 'completed' WHERE type = 'wellbeing'`).run();
    expect(db.prepare(`SELECT rec_done FROM participants WHERE id = 1`).get()).toEqual({ rec_done: 1 });
  });

  it('dates existing uploads from when they were sent, and adds the account intent columns empty', () => {
    const db = seeded();
    migrate(db, MIGRATIONS, 90);
    expect(db.prepare(`SELECT accepted_at FROM recordings WHERE id = 1`).get()).toEqual({
      accepted_at: '2026-03-02T10:05:00.000Z',
    });
    expect(db.prepare(`SELECT account_requested_at, account_uncertain FROM participants`).get()).toEqual({
      account_requested_at: null,
      account_uncertain: null,
    });
  });
});
