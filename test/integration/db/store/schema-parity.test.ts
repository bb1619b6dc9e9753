/**
 * One schema on both engines: PostgreSQL's baseline (main/db/migrations/postgres/) read from its
 * catalog equals SQLite's schema at 180 read from its own: the same tables, columns, kinds of type,
 * nullability, primary, foreign and unique keys and indexes. And the baseline's triggers keep the
 * invariants SQLite's keep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSchema, sqliteSchema, type SchemaShape } from '../../../../main/db/store/catalog';
import { STORE_MIGRATIONS } from '../../../../main/db/migrations/store';
import { migratePostgres } from '../../../../main/db/store/migrate-store';
import { openPgliteStore } from '../../../../main/db/store/pglite-store';
import { openSqliteStore } from '../../../../main/db/store/sqlite-store';
import type { Store } from '../../../../main/db/store/types';
import { PGLITE_START_TIMEOUT } from '../../../support/pglite';

const LATEST = STORE_MIGRATIONS.at(-1)!.version;
const dir = mkdtempSync(join(tmpdir(), 'vs-parity-'));
let sqlite: Store;
let postgres: Store;
let pglite: PGlite;
beforeAll(async () => {
  sqlite = openSqliteStore(join(dir, 'study.db')).store;
  ({ store: postgres, db: pglite } = await openPgliteStore());
}, PGLITE_START_TIMEOUT);
afterAll(async () => {
  await sqlite?.close();
  await pglite?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the PostgreSQL baseline', () => {
  let sqliteShape: SchemaShape;
  let postgresShape: SchemaShape;
  beforeAll(async () => {
    const report = await migratePostgres(postgres);
    expect(report).toEqual({
      from: 0,
      to: LATEST,
      applied: ['baseline 180', ...STORE_MIGRATIONS.map((m) => m.name)],
    });
    sqliteShape = await sqliteSchema(sqlite);
    postgresShape = await postgresSchema(postgres);
  });

  it('is recorded as the latest schema and applied once', async () => {
    expect(await migratePostgres(postgres)).toEqual({ from: LATEST, to: LATEST, applied: [] });
  });

  it("has SQLite's tables, columns, types, nullability, keys and indexes at the latest schema", () => {
    expect(Object.keys(sqliteShape)).toHaveLength(28);
    expect(sqliteShape['study_sites']?.primaryKey).toEqual(['study_id', 'code']);
    expect(sqliteShape['request_budgets']?.primaryKey).toEqual(['profile_id', 'kind']);
    expect(sqliteShape['participants']?.columns).toContain('site_code text not null');
    expect(postgresShape).toEqual(sqliteShape);
  });

  it('would differ if either engine had a column the other lacks', () => {
    const withExtra = (shape: SchemaShape): SchemaShape => ({
      ...shape,
      recordings: { ...shape['recordings']!, columns: [...shape['recordings']!.columns, 'site text'] },
    });
    expect(withExtra(postgresShape)).not.toEqual(sqliteShape);
    expect(postgresShape).not.toEqual(withExtra(sqliteShape));
  });
});

describe("the PostgreSQL baseline's triggers", () => {
  const hash = (c: string) => c.repeat(64);
  const audit = (id: number, prev: string, h: string) =>
    postgres.run(
      "INSERT INTO audit_log (id, at, kind, detail, prev_hash, hash) VALUES (?, '2026-01-01T00:00:00.000Z', 'test', '{}', ?, ?)",
      [id, prev, h],
    );

  it('keep the audit log an append-only hash chain', async () => {
    await audit(1, '', hash('a'));
    await audit(2, hash('a'), hash('b'));
    await expect(audit(3, hash('a'), hash('c'))).rejects.toThrow('follows the last one in the chain');
    await expect(audit(2, hash('b'), hash('c'))).rejects.toThrow('follows the last one in the chain');
    await expect(postgres.run("UPDATE audit_log SET kind = 'edited'")).rejects.toThrow('append-only');
    await expect(postgres.run('DELETE FROM audit_log')).rejects.toThrow('append-only');
    expect(await postgres.all('SELECT id FROM audit_log ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("keep each participant's counters with their recordings and analyses", async () => {
    const at = '2026-01-01T00:00:00.000Z';
    await postgres.run("INSERT INTO studies (id, name, created_at) VALUES (1, 's', ?)", [at]);
    await postgres.run("INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', ?)", [
      at,
    ]);
    const rec = (id: number, state: string, when: string) =>
      postgres.run(
        `INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at,
           recorded_at_source, upload_state, created_at) VALUES (?, 1, 1, 'f.wav', 'h', 1, ?, 'manifest', ?, ?)`,
        [id, when, state, at],
      );
    await rec(1, 'uploaded', '2026-01-02');
    await rec(2, 'rejected', '2026-01-03');
    await postgres.run(
      "INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (1, 'wellbeing', 'processing', ?)",
      [at],
    );
    const counts = () =>
      postgres.get(
        'SELECT rec_count, rec_done, rec_attention, first_recording_at, last_recording_at, last_usable_at FROM participants',
      );
    expect(await counts()).toEqual({
      rec_count: 2,
      rec_done: 0,
      rec_attention: 1,
      first_recording_at: '2026-01-02',
      last_recording_at: '2026-01-03',
      last_usable_at: null,
    });
    await postgres.run("UPDATE analyses SET state = 'completed' WHERE recording_id = 1");
    expect(await counts()).toMatchObject({ rec_done: 1, last_usable_at: '2026-01-02' });
    await postgres.run('DELETE FROM recordings WHERE id = 2');
    expect(await counts()).toMatchObject({ rec_count: 1, rec_attention: 0, last_recording_at: '2026-01-02' });
  });
});
