/**
 * A study database written by the product at schema 180 (test/fixtures/study-180/, written through the
 * command line by scripts/fixtures/write-study-180.ts) opens with today's code: every pending migration
 * applied in place, every row of every table kept, and its export the same files, byte for byte, as the
 * export written when the fixture was made.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';
import { MIGRATIONS } from '../../../main/db/migrations';
import { exportStudy180, STUDY_180_DB, STUDY_180_EXPORT } from '../../support/study-180';

const dir = mkdtempSync(join(tmpdir(), 'vs-upgrade-180-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Row = Record<string, unknown>;
/** Every user table of a database file with its rows, ordered by every column (some tables have no rowid). */
const tablesOf = (db: Database.Database): Map<string, Row[]> => {
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all() as string[];
  const rowsOf = (table: string) => {
    const columns = db.prepare(`SELECT count(*) FROM pragma_table_info(?)`).pluck().get(table) as number;
    const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
    return db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all() as Row[];
  };
  return new Map(names.map((n) => [n, rowsOf(n)]));
};
const only = (row: Row, columns: readonly string[]): Row =>
  Object.fromEntries(columns.map((c) => [c, row[c]]));

const before = (() => {
  const db = new Database(STUDY_180_DB, { readonly: true, fileMustExist: true });
  try {
    return { version: db.pragma('user_version', { simple: true }) as number, tables: tablesOf(db) };
  } finally {
    db.close();
  }
})();

describe('a study database written at schema 180', () => {
  const copy = join(dir, 'voicescope.sqlite');
  copyFileSync(STUDY_180_DB, copy);
  const { db, migration } = openStudyDb(copy);
  afterAll(() => db.close());

  it('is the study the fixture says: recordings, results, curation, visits and local measures', () => {
    expect(before.version).toBe(180);
    const count = (t: string) => before.tables.get(t)?.length ?? 0;
    expect(count('recordings')).toBe(22);
    expect(count('analyses')).toBeGreaterThan(0);
    expect(count('curation_acts')).toBeGreaterThanOrEqual(5);
    expect(count('study_visits')).toBe(4);
    expect(count('local_measures')).toBeGreaterThan(0);
  });

  it("opens with today's code, every pending migration applied", () => {
    expect(migration.from).toBe(180);
    expect(migration.to).toBe(MIGRATIONS.at(-1)!.version);
  });

  it('keeps every row of every table, column for column', () => {
    const after = tablesOf(db);
    for (const [table, rows] of before.tables) {
      expect(after.has(table), `table ${table}`).toBe(true);
      const columns = rows[0] ? Object.keys(rows[0]) : [];
      expect(
        after.get(table)!.map((r) => only(r, columns)),
        `table ${table}`,
      ).toEqual(rows);
    }
  });

  it('exports the same files, byte for byte', async () => {
    await exportStudy180(db, dir);
    const expected = readdirSync(STUDY_180_EXPORT).sort();
    expect(readdirSync(join(dir, 'export')).sort()).toEqual(expected);
    for (const name of expected)
      expect(
        readFileSync(join(dir, 'export', name)).equals(readFileSync(join(STUDY_180_EXPORT, name))),
        name,
      ).toBe(true);
  });

  it("writes the same workbook whatever this computer's time zone (a zip's times have no zone)", async () => {
    const workbookIn = async (zone: string) => {
      const was = process.env['TZ'];
      process.env['TZ'] = zone;
      try {
        const out = mkdtempSync(join(dir, 'tz-'));
        await exportStudy180(db, out);
        return readFileSync(join(out, 'export', 'study.xlsx'));
      } finally {
        if (was === undefined) delete process.env['TZ'];
        else process.env['TZ'] = was;
      }
    };
    const tokyo = await workbookIn('Asia/Tokyo');
    expect(tokyo.equals(await workbookIn('America/New_York'))).toBe(true);
    expect(tokyo.equals(readFileSync(join(STUDY_180_EXPORT, 'study.xlsx')))).toBe(true);
  });
});
