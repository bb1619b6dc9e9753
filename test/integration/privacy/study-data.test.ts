/**
 * Archive and delete a study (main/privacy/archive.ts, study-data.ts) on a real study database:
 * the archive is a consistent copy taken with SQLite's online backup while the engine keeps writing,
 * holding this study only and no key reference; deletion asks for the name, refuses while sending,
 * removes the study's rows and files and nothing else, and leaves the audit trail without codes.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStudyDb, type Db } from '../../../main/db/open';
import { backupDatabase } from '../../../main/db/repos/archive.repo';
import { auditPage } from '../../../main/db/repos/audit.repo';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import { openTestStore, testEngine } from '../../support/test-engine';
import type { Store } from '../../../main/db/store/types';
import { archiveStudy } from '../../../main/privacy/archive';
import { deleteStudy, studyDataSummary } from '../../../main/privacy/study-data';
import { exportsDirOf, playbackDirOf } from '../../../main/workspace/workspace';
import { seedStudy } from './seed';

let home: string;
/** The study's SQLite file on SQLite (the archive is its online backup); null on PGlite. */
let db: Db | null;
let store: Store;
const now = () => Date.UTC(2026, 10, 22, 10, 30);
const notOnSqlite = testEngine() !== 'sqlite';
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'vs-privacy-'));
  db = testEngine() === 'sqlite' ? openStudyDb(join(home, 'voicescope.sqlite')).db : null;
  store = db ? sqliteStore(db) : await openTestStore();
});
afterEach(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

/** A count in an archive's copy (a SQLite file). */
const count = (d: Database.Database, sql: string, ...p: unknown[]) =>
  (d.prepare(sql).get(...p) as { n: number }).n;
/** A count in the live database, on the run's engine. */
const live = async (sql: string, ...p: (string | number)[]) =>
  Number((await store.get<{ n: number }>(sql, p))!.n);
/** The SQLite backup of the live file (archive tests run on SQLite only). */
const backup = (file: string) => backupDatabase(db!, file);

const fakeExport = (studyId: number, name: string) => {
  const dir = join(exportsDirOf(home), name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'datapackage.json'), JSON.stringify({ voicescope: { studyId } }));
  writeFileSync(join(dir, 'long.csv'), 'participant\nX\n');
  return dir;
};

describe('archive', () => {
  // The archive is SQLite's online backup of the study file; a server's study is refused (next test).
  it.skipIf(notOnSqlite)(
    'writes a consistent copy of this study only, without key references, with its settings and checksums',
    async () => {
      const a = await seedStudy(store, {
        workspaceDir: home,
        name: 'Pilot 2026',
        codes: ['ARC-01', 'ARC-02', 'ARC-03'],
      });
      await seedStudy(store, { workspaceDir: home, name: 'Other study', codes: ['OTH-01'] });
      // The engine keeps writing while the backup runs.
      let writes = 0;
      const writer = setInterval(() => {
        db!.prepare(`INSERT INTO event_log (at, kind, study_id) VALUES ('x', 'usage_read', NULL)`).run();
        writes++;
      }, 1);
      const r = await archiveStudy(store, backup, {
        studyId: a.studyId,
        workspaceDir: home,
        appVersion: '0.1.0',
        engineSettings: { poll: {} },
        now,
      });
      clearInterval(writer);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.value.folder).toBe(join(home, 'archives', 'Pilot-2026-archive-20261122-103000'));
      expect(readdirSync(r.value.folder).sort()).toEqual([
        'SHA256SUMS',
        'study-settings.json',
        'study.sqlite',
      ]);
      expect(r.value).toMatchObject({ participants: 3, recordings: 6 });

      const copy = new Database(join(r.value.folder, 'study.sqlite'), { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
        expect(
          (copy.prepare(`SELECT name FROM studies`).all() as { name: string }[]).map((s) => s.name),
        ).toEqual(['Pilot 2026']);
        expect(
          (copy.prepare(`SELECT code FROM participants ORDER BY code`).all() as { code: string }[]).map(
            (p) => p.code,
          ),
        ).toEqual(['ARC-01', 'ARC-02', 'ARC-03']);
        expect(count(copy, `SELECT count(*) AS n FROM measure_values`)).toBe(6);
        expect(
          count(
            copy,
            `SELECT count(*) AS n FROM event_log WHERE study_id IS NOT NULL AND study_id <> ?`,
            a.studyId,
          ),
        ).toBe(0);
        expect(count(copy, `SELECT count(*) AS n FROM service_profiles WHERE key_ref IS NOT NULL`)).toBe(0);
        // The append-only triggers are back in the copy.
        expect(() => copy.prepare(`SELECT 1`).get()).not.toThrow();
        expect(
          count(
            copy,
            `SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name IN ('event_log_no_delete', 'audit_log_no_delete', 'event_log_no_update')`,
          ),
        ).toBe(3);
      } finally {
        copy.close();
      }
      expect(readFileSync(join(r.value.folder, 'study.sqlite')).includes(Buffer.from('OTH-01'))).toBe(false);
      const settings = JSON.parse(
        readFileSync(join(r.value.folder, 'study-settings.json'), 'utf8'),
      ) as Record<string, any>;
      expect(settings).toMatchObject({
        format: 'voicescope-study-archive',
        study: { name: 'Pilot 2026' },
        serviceProfile: { name: 'Lab', baseUrl: 'https://api.example.org' },
        engine: { poll: {} },
      });
      expect(JSON.stringify(settings)).not.toMatch(/key-file|key_ref/);
      const sums = readFileSync(join(r.value.folder, 'SHA256SUMS'), 'utf8');
      for (const f of ['study.sqlite', 'study-settings.json']) {
        expect(sums).toContain(
          `${createHash('sha256')
            .update(readFileSync(join(r.value.folder, f)))
            .digest('hex')}  ${f}`,
        );
      }
      expect(writes).toBeGreaterThan(0);
      // The live database is untouched, and the archive is in the audit log without codes.
      expect(await live(`SELECT count(*) AS n FROM studies`)).toBe(2);
      const audit = (await auditPage(store, 0, 10)).rows;
      expect(audit[0]).toMatchObject({
        kind: 'study_archived',
        studyId: a.studyId,
        subject: 'Pilot 2026',
        detail: { participants: 3, recordings: 6, place: 'workspace' },
      });
      expect(JSON.stringify(audit)).not.toMatch(/ARC-0/);
      expect((await studyDataSummary(store, home, a.studyId))!.lastArchivedAt).toBe(
        '2026-11-22T10:30:00.000Z',
      );
    },
  );

  it('is refused, saying where the backup comes from, for a study kept on a database server', async () => {
    const a = await seedStudy(store, { workspaceDir: home, name: 'Pilot', codes: ['C1'] });
    const r = await archiveStudy(store, null, {
      studyId: a.studyId,
      workspaceDir: home,
      appVersion: '0',
      engineSettings: {},
      now,
    });
    expect(r).toMatchObject({ ok: false, error: { action: expect.stringContaining('backup') } });
    expect(readdirSync(home).filter((n) => n.includes('archive'))).toEqual([]);
  });

  it.skipIf(notOnSqlite)(
    'into a chosen folder; refuses one that does not exist, leaving nothing behind',
    async () => {
      const a = await seedStudy(store, { workspaceDir: home, name: 'Pilot', codes: ['C1'] });
      const chosen = join(home, 'usb-stick');
      const missing = await archiveStudy(store, backup, {
        studyId: a.studyId,
        workspaceDir: home,
        outDir: chosen,
        appVersion: '0',
        engineSettings: {},
        now,
      });
      expect(missing.ok).toBe(false);
      mkdirSync(chosen);
      const r = await archiveStudy(store, backup, {
        studyId: a.studyId,
        workspaceDir: home,
        outDir: chosen,
        appVersion: '0',
        engineSettings: {},
        now,
      });
      expect(r.ok && r.value.folder.startsWith(chosen)).toBe(true);
      const again = await archiveStudy(store, backup, {
        studyId: a.studyId,
        workspaceDir: home,
        outDir: chosen,
        appVersion: '0',
        engineSettings: {},
        now,
      });
      expect(again.ok && again.value.folder.endsWith('-2')).toBe(true);
      expect(readdirSync(chosen).filter((f) => f.startsWith('.'))).toEqual([]);
    },
  );
});

describe('delete', () => {
  it('asks for the exact name, and refuses while a batch is sending or an upload awaits its answer', async () => {
    const a = await seedStudy(store, {
      workspaceDir: home,
      name: 'Pilot 2026',
      codes: ['D1'],
      batchState: 'running',
    });
    const wrong = await deleteStudy(store, {
      studyId: a.studyId,
      confirmName: 'pilot 2026',
      workspaceDir: home,
      now,
    });
    expect(wrong).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', action: expect.stringContaining('Pilot 2026') },
    });
    const running = await deleteStudy(store, {
      studyId: a.studyId,
      confirmName: ' Pilot 2026 ',
      workspaceDir: home,
      now,
    });
    expect(running).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', action: expect.stringMatching(/Cancel the batch/) },
    });
    await store.run(`UPDATE batches SET state = 'cancelled'`);
    await store.run(
      `UPDATE recordings SET upload_state = 'uploading' WHERE id = (SELECT min(id) FROM recordings)`,
    );
    expect(
      await deleteStudy(store, {
        studyId: a.studyId,
        confirmName: 'Pilot 2026',
        workspaceDir: home,
        now,
      }),
    ).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringMatching(/One upload/) } });
    expect(await live(`SELECT count(*) AS n FROM studies`)).toBe(1);
    expect(
      await deleteStudy(store, { studyId: 999, confirmName: 'x', workspaceDir: home, now }),
    ).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it("removes the study's rows and files and nothing of another study; the event and audit logs stay, without codes", async () => {
    const a = await seedStudy(store, { workspaceDir: home, name: 'Pilot 2026', codes: ['DEL-01', 'DEL-02'] });
    const b = await seedStudy(store, { workspaceDir: home, name: 'Keep me', codes: ['KEEP-01'] });
    const exportA = fakeExport(a.studyId, 'Pilot-2026-export-1');
    const exportB = fakeExport(b.studyId, 'Keep-me-export-1');
    const before = (await studyDataSummary(store, home, a.studyId))!;
    expect(before).toMatchObject({
      participants: 2,
      recordings: 4,
      measureValues: 4,
      convertedFiles: 4,
      exportFolders: 1,
      runningBatches: 0,
      uploadsInFlight: 0,
    });
    expect(before.localBytes).toBeGreaterThan(4_000);
    const events = await live(`SELECT count(*) AS n FROM event_log`);

    // A decoded copy the window played (main/audio/playback-copy.ts).
    const played = join(playbackDirOf(home), 'decoded.wav');
    mkdirSync(playbackDirOf(home), { recursive: true });
    writeFileSync(played, 'RIFF');
    const r = await deleteStudy(store, {
      studyId: a.studyId,
      confirmName: 'Pilot 2026',
      workspaceDir: home,
      now,
    });
    expect(existsSync(played)).toBe(false);
    expect(r).toEqual({
      ok: true,
      value: {
        studyId: a.studyId,
        name: 'Pilot 2026',
        participants: 2,
        recordings: 4,
        removedFiles: 4,
        removedExportFolders: 1,
        leftBehind: [],
        // PostgreSQL keeps a deleted row's bytes until its own VACUUM: not scrubbed, and said so.
        databaseScrubbed: testEngine() === 'sqlite',
      },
    });
    for (const t of ['participants', 'recordings', 'batches'])
      expect(await live(`SELECT count(*) AS n FROM ${t} WHERE study_id = ?`, a.studyId), t).toBe(0);
    expect(
      await live(
        `SELECT count(*) AS n FROM measure_values v WHERE NOT EXISTS (SELECT 1 FROM recordings r WHERE r.id = v.recording_id)`,
      ),
    ).toBe(0);
    expect(
      await live(
        `SELECT count(*) AS n FROM analyses a WHERE NOT EXISTS (SELECT 1 FROM recordings r WHERE r.id = a.recording_id)`,
      ),
    ).toBe(0);
    expect(existsSync(a.converted)).toBe(false);
    expect(existsSync(exportA)).toBe(false);
    // The other study is whole.
    expect(await studyDataSummary(store, home, b.studyId)).toMatchObject({
      participants: 1,
      recordings: 2,
      convertedFiles: 2,
      exportFolders: 1,
    });
    expect(existsSync(exportB)).toBe(true);
    // The trail stays: events by id, and the deletion in the audit log with counts but no code.
    expect(await live(`SELECT count(*) AS n FROM event_log`)).toBe(events);
    const audit = (await auditPage(store, 0, 10)).rows;
    expect(audit[0]).toMatchObject({
      kind: 'study_deleted',
      studyId: a.studyId,
      subject: 'Pilot 2026',
      detail: { participants: 2, recordings: 4, converted_files: 4, export_folders: 1 },
    });
    expect(JSON.stringify(audit)).not.toMatch(/DEL-0/);
  });

  // The bytes of the study's SQLite file and its write-ahead log; PGlite has no file.
  it.skipIf(notOnSqlite)(
    'leaves nothing of the deleted codes in the database file or its write-ahead log',
    async () => {
      const a = await seedStudy(store, {
        workspaceDir: home,
        name: 'Pilot 2026',
        codes: ['DEL-01', 'DEL-02'],
      });
      await seedStudy(store, { workspaceDir: home, name: 'Keep me', codes: ['KEEP-01'] });
      const r = await deleteStudy(store, {
        studyId: a.studyId,
        confirmName: 'Pilot 2026',
        workspaceDir: home,
        now,
      });
      expect(r).toMatchObject({ ok: true, value: { databaseScrubbed: true } });
      for (const f of readdirSync(home).filter((x) => x.startsWith('voicescope.sqlite'))) {
        for (const code of ['DEL-01', 'DEL-02', '/data/DEL-01_0.wav'])
          expect(readFileSync(join(home, f)).includes(Buffer.from(code)), `${code} in ${f}`).toBe(false);
      }
      expect(readFileSync(join(home, 'voicescope.sqlite')).includes(Buffer.from('KEEP-01'))).toBe(true);
    },
  );
});
