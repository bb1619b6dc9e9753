/**
 * Moving a single-user study into a team database on a real PostgreSQL 15 server and back, through the
 * command line as the team's administrator: the schema-180 fixture's study (the end-to-end fixture,
 * upgraded on open) is exported, `team import-study` copies it into the team database (a count per table,
 * before and after, all equal), `team export-study` writes it to a new SQLite study file, and the export
 * of that file is the first export byte for byte, as is the export read from the team database itself.
 * A second import of the same study is refused with nothing written.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { EXIT, main } from '../../../../main/cli/voicescope';
import { verifyAuditChain } from '../../../../main/db/repos/audit.repo';
import { connectPostgres } from '../../../../main/db/store/connect';
import { openSqliteStore } from '../../../../main/db/store/sqlite-store';
import type { Store } from '../../../../main/db/store/types';
import { startPostgresCluster, type PostgresCluster } from '../../../support/postgres-cluster';
import { describeWithTool } from '../../../support/reference-tools';
import { exportStudy180From, STUDY_180_DB, STUDY_180_NAME } from '../../../support/study-180';

type Line = Record<string, unknown>;

describeWithTool('postgresql-15', 'a study moved into a team database on PostgreSQL and back', () => {
  let cluster: PostgresCluster;
  let dir: string;
  let url: string;
  let admin: Store;

  /** Runs `voicescope` as the administrator; its JSON lines on standard output and error. */
  const cli = async (...args: string[]): Promise<{ code: number; lines: Line[]; err: string }> => {
    const out: string[] = [];
    const err: string[] = [];
    const so = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const se = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    try {
      const code = await main([...args, '--home', join(dir, 'admin-home'), '--database', url, '--json']);
      const lines = [...out, ...err]
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Line);
      return { code, lines, err: err.join('') };
    } finally {
      so.mockRestore();
      se.mockRestore();
    }
  };

  const exportOf = async (store: Store, name: string): Promise<Map<string, Buffer>> => {
    const out = join(dir, name);
    mkdirSync(out);
    await exportStudy180From(store, out);
    const files = readdirSync(join(out, 'export')).sort();
    return new Map(files.map((f) => [f, readFileSync(join(out, 'export', f))]));
  };
  const exportOfFile = async (file: string, name: string) => {
    const { store } = openSqliteStore(file);
    try {
      return await exportOf(store, name);
    } finally {
      await store.close();
    }
  };

  /** Every table's number of rows, by name. */
  const rowCounts = async (): Promise<Record<string, number>> => {
    const tables = await admin.all<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const t of tables)
      counts[t.name] = (await admin.get<{ n: number }>(`SELECT count(*) AS n FROM "${t.name}"`))!.n;
    return counts;
  };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    dir = mkdtempSync(join(tmpdir(), 'vs-move-pg-'));
    mkdirSync(join(dir, 'admin-home'));
    mkdirSync(join(dir, 'home'));
    copyFileSync(STUDY_180_DB, join(dir, 'home', 'voicescope.sqlite'));
    cluster.superuser('ALTER ROLE voicescope CREATEROLE');
    url = cluster.url(true);
    expect((await cli('team', 'init')).code).toBe(EXIT.ok);
    url = cluster.url(false);
    const connected = await connectPostgres(cluster.address, cluster.password);
    if (!connected.ok) throw new Error(connected.error.message);
    admin = connected.value;
  }, 180_000);

  afterAll(async () => {
    await admin?.close();
    cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('copies the study with every row, and the exports before, in the team database and after are equal', async () => {
    copyFileSync(STUDY_180_DB, join(dir, 'before.sqlite'));
    const before = await exportOfFile(join(dir, 'before.sqlite'), 'before');

    const imported = await cli(
      'team',
      'import-study',
      '--from',
      join(dir, 'home'),
      '--study',
      STUDY_180_NAME,
    );
    expect(imported.code, imported.err).toBe(EXIT.ok);
    const counts = imported.lines.filter((l) => l['kind'] === 'count');
    expect(counts.map((c) => c['table'])).toEqual(
      expect.arrayContaining([
        'studies',
        'participants',
        'recordings',
        'analyses',
        'audit_log',
        'curation_acts',
      ]),
    );
    for (const c of counts) expect(c['after'], String(c['table'])).toBe(c['before']);
    expect(counts.find((c) => c['table'] === 'recordings')).toMatchObject({ before: 22, after: 22 });
    expect(imported.lines.find((l) => l['kind'] === 'study')).toMatchObject({
      complete: true,
      renumbered: {},
    });
    // The participant-to-account link is copied, never printed.
    const accounts = await admin.all<{ account_id: string }>(
      'SELECT account_id FROM participants WHERE account_id IS NOT NULL',
    );
    expect(accounts.length).toBeGreaterThan(0);
    for (const a of accounts) expect(JSON.stringify(imported.lines)).not.toContain(a.account_id);
    expect(await verifyAuditChain(admin)).toMatchObject({ ok: true });

    const inTeam = await exportOf(admin, 'team');
    const back = join(dir, 'back.sqlite');
    const exported = await cli('team', 'export-study', '--study', STUDY_180_NAME, '--to', back);
    expect(exported.code, exported.err).toBe(EXIT.ok);
    for (const c of exported.lines.filter((l) => l['kind'] === 'count'))
      expect(c['after'], String(c['table'])).toBe(c['before']);
    const after = await exportOfFile(back, 'after');

    expect([...inTeam.keys()]).toEqual([...before.keys()]);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [name, bytes] of before) {
      expect(inTeam.get(name)!.equals(bytes), `team database: ${name}`).toBe(true);
      expect(after.get(name)!.equals(bytes), `written back: ${name}`).toBe(true);
    }
  }, 300_000);

  it('refuses a study whose name the team database has, and writes nothing', async () => {
    const rows = await rowCounts();
    const again = await cli('team', 'import-study', '--from', join(dir, 'home'), '--study', STUDY_180_NAME);
    expect(again.code).toBe(EXIT.refused);
    expect(again.lines.find((l) => l['kind'] === 'problem')).toMatchObject({
      code: 'TAKEN',
      message: `There is already a study named "${STUDY_180_NAME}" there: nothing was copied. Rename one of the two studies first.`,
    });
    expect(await rowCounts()).toEqual(rows);
  }, 120_000);
});
