/**
 * Database failures the researcher can act on are recognised from real SQLite errors (provoked here,
 * not faked, wherever SQLite can be made to raise them on a developer machine) and told with what to
 * do; opening a workspace that cannot be used says why and leaves the file untouched.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyDbError, DB_PROBLEM_CODES, type DbProblem } from '../../../main/db/db-errors';
import { openStudyDb, tryOpenStudyDb } from '../../../main/db/open';
import { appendEvent } from '../../../main/db/repos/event-log.repo';
import { sqliteStore } from '../../../main/db/store/sqlite-store';

const root = mkdtempSync(join(tmpdir(), 'vs-dberr-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => {
  const d = join(root, `w${n++}`);
  mkdirSync(d);
  return d;
};

/** Runs `f` and returns what it threw (it must throw). */
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
};

const rejected = async (p: Promise<unknown>): Promise<unknown> => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
};

/** Appends events until SQLite refuses: the database may grow by no page beyond `max_page_count`. */
const fillUntilFull = (db: Database.Database): unknown => {
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  const filler = db.prepare(
    `INSERT INTO event_log (at, kind, detail) VALUES ('2026-01-01T00:00:00Z', 'filler', ?)`,
  );
  return thrown(() => {
    for (let i = 0; i < 100_000; i++) filler.run(JSON.stringify({ pad: 'x'.repeat(500) }));
  });
};

const expectProblem = (p: DbProblem | null, code: DbProblem['code'], message: RegExp, action: RegExp) => {
  expect(p).not.toBeNull();
  expect(p!.code).toBe(code);
  expect(p!.message).toMatch(message);
  expect(p!.action).toMatch(action);
  expect(DB_PROBLEM_CODES).toContain(p!.code);
};

describe('classifyDbError recognises what SQLite really raises', () => {
  it('a full database (SQLITE_FULL) is DISK_FULL: free space, nothing lost, and it names the folder', () => {
    const dir = freshDir();
    const { db } = openStudyDb(join(dir, 'voicescope.sqlite'));
    const before = (db.prepare(`SELECT count(*) n FROM event_log`).get() as { n: number }).n;
    const e = fillUntilFull(db);
    expect((e as { code: string }).code).toBe('SQLITE_FULL');
    const p = classifyDbError(e, { dbPath: join(dir, 'voicescope.sqlite') });
    expectProblem(p, 'DISK_FULL', /disk .* is full/, /Free space .*Nothing was lost/);
    expect(p!.action).toContain(dir);
    expect(p!.retryable).toBe(false);
    // What was written before the disk filled is all there, and the file is sound.
    expect((db.prepare(`SELECT count(*) n FROM event_log`).get() as { n: number }).n).toBeGreaterThan(before);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('a write through a read-only connection, or one the database refuses (query_only), is DB_READONLY', async () => {
    const path = join(freshDir(), 'voicescope.sqlite');
    openStudyDb(path).db.close();
    const ro = new Database(path, { readonly: true });
    const e1 = await rejected(appendEvent(sqliteStore(ro), '2026-01-01T00:00:00Z', 'usage_read', {}));
    expect((e1 as { code: string }).code).toBe('SQLITE_READONLY');
    expectProblem(
      classifyDbError(e1, { dbPath: path }),
      'DB_READONLY',
      /read-only/,
      /writable.*Nothing was lost/,
    );
    ro.close();
    const { db } = openStudyDb(path);
    const store = sqliteStore(db);
    db.pragma('query_only = 1');
    expectProblem(
      classifyDbError(await rejected(appendEvent(store, '2026-01-01T00:00:00Z', 'usage_read', {}))),
      'DB_READONLY',
      /cannot be written/,
      /writable/,
    );
    db.close();
  });

  it('a database locked by another connection beyond the busy timeout is DB_BUSY, and retryable', async () => {
    const path = join(freshDir(), 'voicescope.sqlite');
    const holder = openStudyDb(path).db;
    const other = new Database(path);
    other.pragma('busy_timeout = 20');
    holder.exec('BEGIN IMMEDIATE');
    const e = await rejected(appendEvent(sqliteStore(other), '2026-01-01T00:00:00Z', 'usage_read', {}));
    holder.exec('COMMIT');
    expect((e as { code: string }).code).toMatch(/^SQLITE_BUSY/);
    const p = classifyDbError(e);
    expectProblem(p, 'DB_BUSY', /locked by another program/, /tries again by itself/);
    expect(p!.retryable).toBe(true);
    holder.close();
    other.close();
  });

  it('damaged pages (SQLITE_CORRUPT) are DB_CORRUPT: keep the file, restore a backup', async () => {
    const path = join(freshDir(), 'voicescope.sqlite');
    const { db } = openStudyDb(path);
    const store = sqliteStore(db);
    for (let i = 0; i < 2_000; i++)
      await appendEvent(store, '2026-01-01T00:00:00Z', 'usage_read', {}, { n: i, pad: 'p'.repeat(60) });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(path);
    const page = 4096;
    for (let p = 3; p < bytes.length / page - 1; p += 2)
      bytes.fill(0xab, p * page + 8, p * page + page - 100);
    writeFileSync(path, bytes);
    const damaged = new Database(path);
    const e = thrown(() => damaged.prepare(`SELECT count(*), max(kind) FROM event_log`).get());
    expect((e as { code: string }).code).toMatch(/^SQLITE_CORRUPT/);
    expectProblem(classifyDbError(e, { dbPath: path }), 'DB_CORRUPT', /damaged/, /Do not delete it.*backup/);
    damaged.close();
  });

  it("SQLite's other extended codes map by their family; I/O errors (not provoked here) are DB_IO", () => {
    const as = (code: string) => classifyDbError(Object.assign(new Error('x'), { code }));
    expect(as('SQLITE_IOERR_WRITE')?.code).toBe('DB_IO');
    expect(as('SQLITE_IOERR_FSYNC')?.code).toBe('DB_IO');
    expect(as('SQLITE_READONLY_DBMOVED')?.message).toMatch(/moved, renamed or deleted/);
    expect(as('SQLITE_BUSY_SNAPSHOT')?.code).toBe('DB_BUSY');
    expect(as('SQLITE_CANTOPEN_ISDIR')?.code).toBe('DB_CANTOPEN');
    expect(as('SQLITE_PERM')?.code).toBe('DB_READONLY');
    // A wrapped error is recognised through its cause (as the IPC router may receive it).
    expect(
      classifyDbError(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'SQLITE_FULL' }) }))
        ?.code,
    ).toBe('DISK_FULL');
  });

  it("anything that is no database problem of the researcher's is not classified", () => {
    const { db } = openStudyDb(':memory:');
    const constraint = thrown(() =>
      db.prepare(`INSERT INTO studies (name, created_at) VALUES (NULL, 'x')`).run(),
    );
    expect((constraint as { code: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(classifyDbError(constraint)).toBeNull();
    expect(classifyDbError(thrown(() => db.prepare(`SELECT * FROM no_such_table`).get()))).toBeNull();
    db.close();
    for (const e of [
      new Error('boom'),
      new TypeError('x is undefined'),
      'a string',
      null,
      undefined,
      { code: 'ENOENT' },
      { code: 42 },
    ]) {
      expect(classifyDbError(e)).toBeNull();
    }
  });
});

describe('a study database on a server that went away mid-way', () => {
  it('is DB_CONNECTION_LOST: nothing kept half-way, retryable once Voicescope has reconnected by itself', () => {
    for (const e of [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ]) {
      const p = classifyDbError(e);
      expect(p).toMatchObject({ code: 'DB_CONNECTION_LOST', retryable: true, sqliteCode: null });
      expect(p!.message).toContain('nothing of it was kept half-way');
      expect(p!.action).toContain('reconnects by itself');
    }
    // A query's own failure on the server is not a lost connection.
    expect(classifyDbError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
  });
});

describe('opening a workspace database says why it cannot be used', () => {
  it('a file that is not a database: DB_CORRUPT, and the file is left exactly as it was', () => {
    const path = join(freshDir(), 'voicescope.sqlite');
    const junk = Buffer.from('Quarterly report, draft 3. Not a database. '.repeat(200));
    writeFileSync(path, junk);
    const r = tryOpenStudyDb(path);
    expect(r.ok).toBe(false);
    if (!r.ok) expectProblem(r.error, 'DB_CORRUPT', /not a Voicescope study database/, /Do not delete it/);
    expect(readFileSync(path).equals(junk)).toBe(true);
  });

  it('a database written by a newer Voicescope: DB_TOO_NEW, not migrated, not changed', () => {
    const path = join(freshDir(), 'voicescope.sqlite');
    const { db } = openStudyDb(path);
    db.pragma('user_version = 9990');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const before = readFileSync(path);
    const r = tryOpenStudyDb(path);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expectProblem(r.error, 'DB_TOO_NEW', /newer Voicescope \(schema 9990/, /Install the newer Voicescope/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a folder that does not exist, or a folder where the file should be: DB_CANTOPEN naming the folder', () => {
    const missing = join(root, 'no-such-folder', 'voicescope.sqlite');
    const r1 = tryOpenStudyDb(missing);
    expect(r1.ok).toBe(false);
    if (!r1.ok) expectProblem(r1.error, 'DB_CANTOPEN', /folder does not exist/, /no-such-folder/);
    const dir = freshDir();
    const r2 = tryOpenStudyDb(dir);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expectProblem(r2.error, 'DB_CANTOPEN', /could not be opened/, /exists.*connected.*writable/);
  });

  it('a sound database opens, migrated, as before', () => {
    const r = tryOpenStudyDb(join(freshDir(), 'voicescope.sqlite'));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.migration.applied.length).toBeGreaterThan(0);
      r.value.db.close();
    }
  });
});
