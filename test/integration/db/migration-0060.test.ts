/**
 * Migration 0060: the audit log. Entries can be added and read, never changed or deleted; the detail
 * accepts ids, counts and plain words only, so a name, a code or a path cannot be written into it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { appendAudit, auditPage } from '../../../main/db/repos/audit.repo';

const migrated = (to?: number) => {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS, to);
  return db;
};

describe('migration 0060 (audit log)', () => {
  it('adds the table to a database at the previous version, leaving its data alone', () => {
    const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === 60) - 1]!.version;
    const db = migrated(previous);
    db.prepare(
      `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES ('Lab', 'https://x', 'v1.3', 'now')`,
    ).run();
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'audit_log'`).get()).toBeUndefined();
    migrate(db, MIGRATIONS, 60);
    expect(db.prepare(`SELECT count(*) AS n FROM service_profiles`).get()).toEqual({ n: 1 });
    expect(auditPage(db, 0, 10)).toEqual({ rows: [], total: 0 });
  });

  it('is append-only: UPDATE and DELETE are refused by triggers', () => {
    const db = migrated();
    const id = appendAudit(db, {
      at: '2026-11-22T10:00:00.000Z',
      kind: 'key_added',
      profileId: 1,
      subject: 'Lab',
      detail: { storage: 'safe-storage' },
    });
    expect(() => db.prepare(`UPDATE audit_log SET kind = 'key_removed' WHERE id = ?`).run(id)).toThrow(
      /append-only/,
    );
    expect(() => db.prepare(`DELETE FROM audit_log WHERE id = ?`).run(id)).toThrow(/append-only/);
    expect(auditPage(db, 0, 10).rows).toEqual([
      {
        id,
        at: '2026-11-22T10:00:00.000Z',
        kind: 'key_added',
        profileId: 1,
        studyId: null,
        subject: 'Lab',
        detail: { storage: 'safe-storage' },
      },
    ]);
  });

  it('lists newest first, a page at a time', () => {
    const db = migrated();
    for (let i = 0; i < 5; i++)
      appendAudit(db, {
        at: `2026-11-22T10:0${i}:00.000Z`,
        kind: 'export_written',
        studyId: 1,
        detail: { rows: i },
      });
    const page = auditPage(db, 1, 2);
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.detail['rows'])).toEqual([3, 2]);
  });

  it('refuses a detail that is not an id, a count or a plain word (a path, a name, a code with capitals)', () => {
    const db = migrated();
    for (const v of ['/home/ana/study/P001.wav', 'C:\\data', 'Ana Müller', 'P001', 'x'.repeat(41)]) {
      expect(() => appendAudit(db, { at: 'now', kind: 'export_written', detail: { file: v } }), v).toThrow(
        /plain word/,
      );
    }
    expect(() => appendAudit(db, { at: 'now', kind: 'nope' as never })).toThrow(/unknown audit kind/);
    expect(auditPage(db, 0, 10).total).toBe(0);
  });
});
