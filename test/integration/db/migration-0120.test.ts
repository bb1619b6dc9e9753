/**
 * Migration 0120: curation. Recordings gain an exclusion (when, why) and provenance notes; acts are kept
 * in curation_acts and never changed; the participant figures no longer take an excluded recording as
 * the first or latest one.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';

const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === 120) - 1]!.version;

const seed = (db: Database.Database) => {
  db.exec(`
    INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', 'now');
    INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'S', 1, 'now');
    INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P-1', 'now');
  `);
  const add = db.prepare(
    `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, created_at)
     VALUES (1, 1, ?, ?, 1, ?, 'manifest', 'now')`,
  );
  add.run('/a.wav', 'a', '2026-01-01T00:00:00.000Z');
  add.run('/b.wav', 'b', '2026-02-01T00:00:00.000Z');
};
const figures = (db: Database.Database) =>
  db.prepare(`SELECT rec_count, first_recording_at, last_recording_at FROM participants WHERE id = 1`).get();

describe('migration 0120 (curation)', () => {
  it('keeps the recordings and their figures, and adds the columns and the acts table', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, previous);
    seed(db);
    migrate(db, MIGRATIONS, 120);
    expect(db.prepare(`SELECT count(*) AS n, count(excluded_at) AS x FROM recordings`).get()).toEqual({
      n: 2,
      x: 0,
    });
    expect(figures(db)).toEqual({
      rec_count: 2,
      first_recording_at: '2026-01-01T00:00:00.000Z',
      last_recording_at: '2026-02-01T00:00:00.000Z',
    });
    expect(db.prepare(`SELECT count(*) AS n FROM curation_acts`).get()).toEqual({ n: 0 });
  });

  it('an excluded recording still counts, but is neither the first nor the latest; restoring recomputes', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS);
    seed(db);
    db.prepare(
      `UPDATE recordings SET excluded_at = 'now', excluded_reason = 'test' WHERE source_path = '/b.wav'`,
    ).run();
    expect(figures(db)).toEqual({
      rec_count: 2,
      first_recording_at: '2026-01-01T00:00:00.000Z',
      last_recording_at: '2026-01-01T00:00:00.000Z',
    });
    db.prepare(`UPDATE recordings SET excluded_at = NULL WHERE source_path = '/b.wav'`).run();
    expect(figures(db)).toMatchObject({ last_recording_at: '2026-02-01T00:00:00.000Z' });
  });

  it('an act is never changed, except that its audit entry is written once', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS);
    seed(db);
    db.exec(
      `INSERT INTO curation_acts (id, study_id, at, who, act, recording_id, before, after) VALUES (1, 1, 'now', 'ada', 'exclude', 1, '{}', '{}')`,
    );
    db.exec(`UPDATE curation_acts SET audit_id = 7 WHERE id = 1`);
    expect(() => db.exec(`UPDATE curation_acts SET audit_id = 8 WHERE id = 1`)).toThrow(/never changed/);
    expect(() => db.exec(`UPDATE curation_acts SET reason = 'x' WHERE id = 1`)).toThrow(/never changed/);
  });
});
