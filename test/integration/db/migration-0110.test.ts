/**
 * Migration 0110 (study design): existing studies get an open period in UTC and no schedule, existing
 * participants are active with their last usable recording filled in, and the triggers keep that figure
 * as recordings and analyses change.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';

const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === 110) - 1]!.version;
const AT = '2026-03-02T10:00:00.000Z';

const seeded = () => {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS, previous);
  db.exec(`
    INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', '${AT}');
    INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'S', 1, '${AT}');
    INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', '${AT}'), (2, 1, 'P2', '${AT}');
    INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
      VALUES (1, 1, 1, '/a.wav', 'aa', 1, '2026-03-01T10:00:00.000Z', 'manifest', 'uploaded', '${AT}'),
             (2, 1, 1, '/b.wav', 'bb', 1, '2026-03-08T10:00:00.000Z', 'manifest', 'uploaded', '${AT}'),
             (3, 1, 2, '/c.wav', 'cc', 1, '2026-03-05T10:00:00.000Z', 'manifest', 'rejected', '${AT}');
    INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (1, 'wellbeing', 'completed', '${AT}'), (2, 'wellbeing', 'processing', '${AT}');
  `);
  return db;
};

const usable = (db: Database.Database) =>
  db.prepare(`SELECT id, status, last_usable_at FROM participants ORDER BY id`).all();

describe('migration 0110 (study design)', () => {
  it('keeps the data, opens every study in UTC and makes every participant active with their last usable recording', () => {
    const db = seeded();
    migrate(db, MIGRATIONS, 110);
    expect(db.prepare(`SELECT start_date, end_date, time_zone FROM studies`).get()).toEqual({
      start_date: null,
      end_date: null,
      time_zone: 'UTC',
    });
    expect(usable(db)).toEqual([
      { id: 1, status: 'active', last_usable_at: '2026-03-01T10:00:00.000Z' },
      { id: 2, status: 'active', last_usable_at: null },
    ]);
    expect(db.prepare(`SELECT count(*) AS n FROM recordings`).get()).toEqual({ n: 3 });
  });

  it('keeps the last usable recording as analyses complete, recordings move and are deleted', () => {
    const db = seeded();
    migrate(db, MIGRATIONS, 110);
    db.prepare(`UPDATE analyses SET state = 'completed' WHERE recording_id = 2`).run();
    expect(usable(db)[0]).toMatchObject({ last_usable_at: '2026-03-08T10:00:00.000Z' });
    db.prepare(`UPDATE recordings SET participant_id = 2 WHERE id = 2`).run();
    expect(usable(db).map((r: any) => r.last_usable_at)).toEqual([
      '2026-03-01T10:00:00.000Z',
      '2026-03-08T10:00:00.000Z',
    ]);
    db.prepare(`DELETE FROM recordings WHERE id = 1`).run();
    expect(usable(db)[0]).toMatchObject({ last_usable_at: null });
  });

  it('refuses an unknown status and keeps visit names unique within a study', () => {
    const db = seeded();
    migrate(db, MIGRATIONS, 110);
    expect(() => db.prepare(`UPDATE participants SET status = 'lost' WHERE id = 1`).run()).toThrow(/CHECK/);
    db.prepare(
      `INSERT INTO study_visits (study_id, position, name, target_day) VALUES (1, 1, 'Baseline', 0)`,
    ).run();
    expect(() =>
      db
        .prepare(
          `INSERT INTO study_visits (study_id, position, name, target_day) VALUES (1, 2, 'Baseline', 7)`,
        )
        .run(),
    ).toThrow(/UNIQUE/);
  });
});
