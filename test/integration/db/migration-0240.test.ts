/**
 * Migration 0240: on SQLite, a curation act's every column is kept as written, its member and
 * workstation (migration 0210) too; the one change allowed is its audit entry's number, set once. The
 * audit log refuses a change to any column, the member and workstation among them.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';

const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === 240) - 1]!.version;

/** A change of each column of curation_acts, to a value it may hold (the act's other acts exist). */
const CHANGE: Record<string, string> = {
  id: '1000',
  study_id: '2',
  at: "'2026-02-02T00:00:00.000Z'",
  who: "'someone else'",
  act: "'restore'",
  recording_id: '2',
  reason: "'another reason'",
  before: '\'{"x":1}\'',
  after: '\'{"x":2}\'',
  undoes: '2',
  participant_id: '2',
  member: "'other_login'",
  workstation: "'other-workstation'",
};

const seed = (db: Database.Database) =>
  db.exec(`
    INSERT INTO studies (id, name, created_at) VALUES (1, 'S', 'now'), (2, 'T', 'now');
    INSERT INTO curation_acts (id, study_id, at, who, act, recording_id, reason, before, after, participant_id, member, workstation)
      VALUES (1, 1, '2026-01-01T00:00:00.000Z', 'me', 'exclude', 1, 'noisy', '{}', '{}', 1, 'coord_a', 'ws-1'),
             (2, 1, '2026-01-01T00:00:01.000Z', 'me', 'undo', 1, NULL, '{}', '{}', 1, 'coord_a', 'ws-1');
    INSERT INTO audit_log (id, at, kind, study_id, detail, prev_hash, hash, member, workstation)
      VALUES (1, 'now', 'recording_excluded', 1, '{}', '', '${'a'.repeat(64)}', 'coord_a', 'ws-1');
  `);

const columnsOf = (db: Database.Database, table: string) =>
  (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map(
    (c) => c.name,
  );

describe('migration 0240 (a curation act is never changed, its member and workstation included)', () => {
  it('refuses a change of each column of a curation act, even beside setting its audit entry', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, previous);
    seed(db);
    migrate(db, MIGRATIONS, 240);
    expect(columnsOf(db, 'curation_acts').filter((c) => c !== 'audit_id')).toEqual(Object.keys(CHANGE));
    for (const [column, value] of Object.entries(CHANGE))
      expect(
        () => db.prepare(`UPDATE curation_acts SET audit_id = 1, ${column} = ${value} WHERE id = 1`).run(),
        column,
      ).toThrow('curation_acts are never changed');
    db.prepare('UPDATE curation_acts SET audit_id = 1 WHERE id = 1').run();
    expect(() => db.prepare('UPDATE curation_acts SET audit_id = 2 WHERE id = 1').run()).toThrow(
      'curation_acts are never changed',
    );
    expect(db.prepare('SELECT member, workstation, audit_id FROM curation_acts WHERE id = 1').get()).toEqual({
      member: 'coord_a',
      workstation: 'ws-1',
      audit_id: 1,
    });
  });

  it('before it, the member and workstation could be changed beside the audit entry', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, previous);
    seed(db);
    db.prepare(`UPDATE curation_acts SET audit_id = 1, member = 'other_login' WHERE id = 1`).run();
    expect(db.prepare('SELECT member FROM curation_acts WHERE id = 1').get()).toEqual({
      member: 'other_login',
    });
  });

  it("refuses a change of the audit log's member and workstation", () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS);
    seed(db);
    for (const column of ['member', 'workstation'])
      expect(() => db.prepare(`UPDATE audit_log SET ${column} = 'other' WHERE id = 1`).run(), column).toThrow(
        'audit_log is append-only',
      );
  });
});
