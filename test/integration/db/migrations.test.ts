import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseFromFutureError, migrate, schemaVersion } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { openStudyDb } from '../../../main/db/open';

const dirs: string[] = [];
const tempDb = () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-db-'));
  dirs.push(d);
  return join(d, 'study.sqlite');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const plan = (db: Database.Database, sql: string) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');

describe('study database', () => {
  it('opens in WAL mode with foreign keys, at the latest schema', () => {
    const { db, migration } = openStudyDb(tempDb());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(migration).toEqual({
      from: 0,
      to: MIGRATIONS.at(-1)!.version,
      applied: MIGRATIONS.map((m) => m.name),
    });
    db.close();
  });

  it('migrates from every earlier version to the latest, and reopening applies nothing', () => {
    for (const m of [{ version: 0 }, ...MIGRATIONS]) {
      const path = tempDb();
      const early = new Database(path);
      migrate(early, MIGRATIONS, m.version);
      expect(schemaVersion(early)).toBe(m.version);
      early.close();
      const { db, migration } = openStudyDb(path);
      expect(migration.to).toBe(MIGRATIONS.at(-1)!.version);
      db.close();
      expect(openStudyDb(path).migration.applied).toEqual([]);
    }
  });

  it('refuses a database written by a newer Voicescope and leaves it untouched', () => {
    const path = tempDb();
    const db = new Database(path);
    db.pragma('user_version = 9990');
    db.close();
    expect(() => openStudyDb(path)).toThrow(DatabaseFromFutureError);
    const again = new Database(path);
    expect(schemaVersion(again)).toBe(9990);
    again.close();
  });

  it('keeps the event log append-only', () => {
    const { db } = openStudyDb(tempDb());
    db.prepare(`INSERT INTO event_log (at, kind) VALUES ('2026-01-01T00:00:00Z', 'upload_sent')`).run();
    expect(() => db.prepare(`UPDATE event_log SET kind = 'x'`).run()).toThrow(/append-only/);
    expect(() => db.prepare(`DELETE FROM event_log`).run()).toThrow(/append-only/);
  });

  it('answers a participant timeline, due polls and duplicate checks from indexes', () => {
    const { db } = openStudyDb(tempDb());
    expect(
      plan(
        db,
        `SELECT recorded_at, value_num FROM measure_values WHERE participant_id = 1 AND measure_key = 'pd_hnr' ORDER BY recorded_at`,
      ),
    ).toMatch(/USING (COVERING )?INDEX measure_timeline/);
    expect(
      plan(
        db,
        `SELECT recording_id, type FROM analyses WHERE next_poll_at IS NOT NULL AND next_poll_at <= '2026' ORDER BY next_poll_at`,
      ),
    ).toMatch(/INDEX analyses_due/);
    expect(plan(db, `SELECT id FROM recordings WHERE participant_id = 1 AND content_sha256 = 'x'`)).toMatch(
      /INDEX recordings_by_hash/,
    );
  });

  it('rejects values that break the schema rules', () => {
    const { db } = openStudyDb(tempDb());
    expect(() =>
      db
        .prepare(
          `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES ('p', 'u', 'v2', 'now')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() =>
      db.prepare(`INSERT INTO participants (study_id, code, created_at) VALUES (99, 'P1', 'now')`).run(),
    ).toThrow(/FOREIGN KEY/);
  });
});
