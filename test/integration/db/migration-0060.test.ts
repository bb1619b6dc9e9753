/**
 * Migration 0060: the audit log. Entries can be added and read, never changed or deleted; the detail
 * accepts ids, counts and plain words only, so a name, a code or a path cannot be written into it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { appendAuditAlone, auditPage } from '../../../main/db/repos/audit.repo';
import { sqliteStore } from '../../../main/db/store/sqlite-store';

const migrated = (to?: number) => {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS, to);
  return db;
};

describe('migration 0060 (audit log)', () => {
  it('adds the table to a database at the previous version, leaving its data alone', async () => {
    const previous = MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === 60) - 1]!.version;
    const db = migrated(previous);
    db.prepare(
      `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES ('Lab', 'https://x', 'v1.3', 'now')`,
    ).run();
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'audit_log'`).get()).toBeUndefined();
    migrate(db, MIGRATIONS, 60);
    expect(db.prepare(`SELECT count(*) AS n FROM service_profiles`).get()).toEqual({ n: 1 });
    expect(await auditPage(sqliteStore(db), 0, 10)).toEqual({ rows: [], total: 0 });
  });

  it('is append-only: UPDATE and DELETE are refused by triggers', async () => {
    const db = migrated();
    const store = sqliteStore(db);
    const id = await appendAuditAlone(store, {
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
    expect((await auditPage(store, 0, 10)).rows).toEqual([
      {
        id,
        at: '2026-11-22T10:00:00.000Z',
        kind: 'key_added',
        profileId: 1,
        studyId: null,
        subject: 'Lab',
        detail: { storage: 'safe-storage' },
        // Who and where (migration 210): no login on SQLite, this computer's name.
        member: null,
        siteCode: null,
        workstation: expect.any(String),
      },
    ]);
  });

  it('lists newest first, a page at a time', async () => {
    const store = sqliteStore(migrated());
    for (let i = 0; i < 5; i++)
      await appendAuditAlone(store, {
        at: `2026-11-22T10:0${i}:00.000Z`,
        kind: 'export_written',
        studyId: 1,
        detail: { rows: i },
      });
    const page = await auditPage(store, 1, 2);
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.detail['rows'])).toEqual([3, 2]);
  });

  it('refuses a detail that is not an id, a count or a plain word (a path, a name, a code with capitals)', async () => {
    const store = sqliteStore(migrated());
    for (const v of ['/home/ana/study/P001.wav', 'C:\\data', 'Ana Müller', 'P001', 'x'.repeat(41)]) {
      await expect(
        appendAuditAlone(store, { at: 'now', kind: 'export_written', detail: { file: v } }),
        v,
      ).rejects.toThrow(/plain word/);
    }
    await expect(appendAuditAlone(store, { at: 'now', kind: 'nope' as never })).rejects.toThrow(
      /unknown audit kind/,
    );
    expect((await auditPage(store, 0, 10)).total).toBe(0);
  });
});
