/**
 * Each role's everyday work on a team study, through the command line, against a real PostgreSQL 15
 * server: the owner sets the study up; coordinators at sites a and b import (their participants land
 * at their own site; one granted both sites chooses with --site), curate and see only their site; an
 * analyst exports the granted site's data, the owner's export of it less the columns withheld; a
 * monitor reads and is refused writes in a sentence that says who can do it; the owner's `wait`
 * returns, naming the workstation, when all that is left waits for one that is away. Every act's audit
 * entry names its member and workstation, and concurrent appends from two logins keep one chain, which
 * the owner verifies and which fails once the server's superuser alters an entry; a member is told who
 * can check the whole chain. The administrator's and owner's set-up runs in this process (main); each
 * member's command is a process of its own, the independent ones at the same time.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT, main } from '../../../main/cli/voicescope';
import { appendAuditAlone } from '../../../main/db/repos/audit.repo';
import { connectPostgres } from '../../../main/db/store/connect';
import type { Store } from '../../../main/db/store/types';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { workstationName } from '../../../main/workspace/workstation-name';
import { makeWav } from '../../fixtures/audio';
import { cliWorkspace, jsonLines, type CliRun, type CliWorkspace } from '../../support/cli-workspace';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';
import { readCsv } from '../export/helpers';

const MEMBERS = {
  owner_1: { role: 'owner', sites: [] },
  coord_a: { role: 'coordinator', sites: ['a'] },
  coord_b: { role: 'coordinator', sites: ['b'] },
  coord_ab: { role: 'coordinator', sites: ['a', 'b'] },
  analyst_a: { role: 'analyst', sites: ['a'] },
  monitor_b: { role: 'monitor', sites: ['b'] },
} as const;
type Who = keyof typeof MEMBERS;
const WHO = Object.keys(MEMBERS) as Who[];
const PASSWORD = (who: Who) => `pw-${who}-long-enough-7`;

describeWithTool('postgresql-15', 'each role at work on a team study, through the command line', () => {
  let cluster: PostgresCluster;
  let sandbox: Sandbox;
  const ws = {} as Record<Who | 'admin', CliWorkspace>;
  const said: CliRun[] = [];
  const urlOf = (who: Who | 'admin', withPassword: boolean) => {
    const admin = cluster.url(withPassword);
    if (who === 'admin') return admin;
    return admin.replace(
      /^postgres:\/\/voicescope(:[^@]*)?@/,
      `postgres://${who}${withPassword ? `:${PASSWORD(who)}` : ''}@`,
    );
  };
  const as = async (who: Who | 'admin', ...args: string[]) => {
    const r = await ws[who].run([...args, '--database', urlOf(who, false), '--json']);
    said.push(r);
    return r;
  };
  const folder = (name: string, codes: readonly string[]) => {
    const dir = join(ws.admin.root, name);
    mkdirSync(dir, { recursive: true });
    for (const [i, code] of codes.entries())
      writeFileSync(join(dir, `${code}_w1.wav`), makeWav({ seconds: 42, speechSeconds: 36, seed: 90 + i }));
    return dir;
  };
  const importing = (dir: string, ...more: string[]) => [
    'import',
    '--study',
    'S',
    dir,
    '--pattern',
    '{participant}_{session}.wav',
    '--tz',
    'UTC',
    '--yes',
    ...more,
  ];
  let superStore: Store;

  /**
   * The administrator's and the owner's set-up, in this process (main, as `voicescope` runs it): what
   * this journey checks is each member's work, each member's command a process of its own.
   */
  const inProcess = async (...args: string[]) => {
    const code = await main(args);
    expect(code, args.slice(0, 3).join(' ')).toBe(EXIT.ok);
  };

  beforeAll(async () => {
    [cluster, sandbox] = await Promise.all([
      startPostgresCluster(),
      startSandbox({
        port: 0,
        config: {
          organisations: [{ id: 'lab', name: 'Lab', apiKeys: [DEMO_API_KEY] }],
          scenario: { preset: 'fast' },
        },
      }),
    ]);
    for (const who of ['admin', ...WHO] as const)
      ws[who] = cliWorkspace(`vs-team-${who}-`, { env: { VS_TEST_KEY: DEMO_API_KEY } });
    cluster.superuser('ALTER ROLE voicescope CREATEROLE');
    const admin = (...args: string[]) =>
      inProcess(...args, '--home', ws.admin.home, '--database', urlOf('admin', false), '--json');
    await inProcess('team', 'init', '--home', ws.admin.home, '--database', urlOf('admin', true), '--json');
    for (const who of WHO) {
      const m = MEMBERS[who];
      process.env['VS_MEMBER_PASSWORD'] = PASSWORD(who);
      if (who === 'coord_a')
        for (const site of ['a', 'b'])
          await admin('team', 'site', 'add', '--study', 'S', '--site', site, '--name', `Clinic ${site}`);
      await admin(
        'team',
        'member',
        'add',
        '--login',
        who,
        '--role',
        m.role,
        ...(m.sites.length > 0 ? ['--study', 'S'] : []),
        ...m.sites.flatMap((s) => ['--site', s]),
        '--key-env',
        'VS_MEMBER_PASSWORD',
      );
      if (who !== 'owner_1') continue;
      // The owner's first command gives the password once, in the address; the owner sets the study up.
      process.env['VS_TEST_KEY'] = DEMO_API_KEY;
      const owner = (withPassword: boolean, ...args: string[]) =>
        inProcess(...args, '--home', ws.owner_1.home, '--database', urlOf('owner_1', withPassword), '--json');
      await owner(
        true,
        'profile',
        'add',
        '--name',
        'lab',
        '--url',
        sandbox.url,
        '--api',
        'v1.3',
        '--key-env',
        'VS_TEST_KEY',
        '--sandbox',
      );
      await owner(false, 'study', 'create', '--name', 'S', '--profile', 'lab');
      await owner(false, 'settings', '--first-poll', '5', '--poll-interval', '6', '--poll-jitter', '0');
    }
    delete process.env['VS_MEMBER_PASSWORD'];
    // Each other member's first command gives the password once, in the address (all at once).
    await Promise.all(
      WHO.filter((w) => w !== 'owner_1').map(async (who) => {
        const hello = await ws[who].run(['study', 'list', '--database', urlOf(who, true), '--json']);
        expect(hello.code, hello.stdout + hello.stderr).toBe(EXIT.ok);
      }),
    );
    const s = await connectPostgres({ ...cluster.address }, cluster.password);
    if (!s.ok) throw new Error(s.error.message);
    superStore = s.value;
  }, 600_000);

  afterAll(async () => {
    await superStore?.close();
    await sandbox?.close();
    cluster?.stop();
    for (const w of Object.values(ws)) w.remove();
  });

  /** The owner's `wait`, started once the coordinators have imported. */
  let sending: Promise<CliRun>;

  const sitesOfParticipants = () =>
    superStore.all<{ code: string; site_code: string }>(
      'SELECT code, site_code FROM participants ORDER BY code',
    );

  it('a coordinator imports into their own site; one granted two sites chooses with --site', async () => {
    // The batch is written with its start intent; the owner's workstation creates the accounts and sends it.
    const imported = (r: CliRun) => {
      expect(r.code, r.stdout + r.stderr).toBe(EXIT.ok);
      expect(jsonLines(r.stdout).map((l) => l['kind'])).toEqual(expect.arrayContaining(['batch', 'queued']));
    };
    const [a, b] = await Promise.all([
      as('coord_a', ...importing(folder('week-a', ['PA-1', 'PA-2']))),
      as('coord_b', ...importing(folder('week-b', ['PB-1']))),
    ]);
    imported(a);
    imported(b);
    const unsure = await as('coord_ab', ...importing(folder('week-ab', ['PAB-1'])));
    expect(unsure.code).toBe(EXIT.refused);
    expect(unsure.stdout + unsure.stderr).toMatch(/sites a and b.*--site/);
    imported(await as('coord_ab', ...importing(join(ws.admin.root, 'week-ab'), '--site', 'b')));
    expect(await sitesOfParticipants()).toEqual([
      { code: 'PA-1', site_code: 'a' },
      { code: 'PA-2', site_code: 'a' },
      { code: 'PAB-1', site_code: 'b' },
      { code: 'PB-1', site_code: 'b' },
    ]);
    const queued = await superStore.all<{ upload_state: string }>(
      'SELECT DISTINCT upload_state FROM recordings',
    );
    expect(queued.map((r) => r.upload_state)).not.toContain('refused_locally');
    // The owner's workstation creates the accounts and sends the coordinators' batches meanwhile.
    sending = as('owner_1', 'wait', '--study', 'S', '--timeout', '200');
  }, 600_000);

  it('a monitor and an analyst are refused an import, and a monitor every write, in a sentence naming their role', async () => {
    const pb1 = () =>
      superStore.get<{ status: string; baseline_date: string | null }>(
        "SELECT status, baseline_date FROM participants WHERE code = 'PB-1'",
      );
    const said = await Promise.all([
      ...(['monitor_b', 'analyst_a'] as const).map(async (who) => ({
        r: await as(who, ...importing(join(ws.admin.root, 'week-b'))),
        words: `Your role in this study (${MEMBERS[who].role}) cannot import recordings.`,
      })),
      ...[
        // Refused before anything is read (team-rights.ts)...
        ['curate', 'exclude', '--study', 'S', '--recording', '1', '--reason', 'noisy'],
        // ...or by the database, whose refusal is told in the same words.
        ['settings', '--first-poll', '7'],
        ['participant', 'status', '--study', 'S', '--participant', 'PB-1', '--set', 'completed'],
        ['participant', 'baseline', '--study', 'S', '--participant', 'PB-1', '--date', '2026-01-01'],
      ].map(async (args) => ({
        r: await as('monitor_b', ...args),
        words: 'Your role in this study (monitor) cannot ',
      })),
    ]);
    for (const { r, words } of said) {
      expect(r.code, r.stdout + r.stderr).toBe(EXIT.refused);
      expect(r.stderr + r.stdout).toContain(words);
      expect(r.stderr + r.stdout).not.toMatch(/permission denied|unexpected failure/i);
    }
    // Nothing was written (the owner's workstation, sending meanwhile, may make PB-1 active).
    const after = await pb1();
    expect(after?.status).not.toBe('completed');
    expect(after?.baseline_date).not.toBe('2026-01-01');
  }, 300_000);

  it('each member sees the status of their own sites only', async () => {
    const sees = async (who: Who, code: string) => {
      const r = await as(who, 'participant', 'status', '--study', 'S', '--participant', code);
      return `${who} ${code}: ${r.code === EXIT.ok ? 'seen' : `${r.code} ${r.stdout.slice(-300)}${r.stderr}`}`;
    };
    const seen = await Promise.all([
      sees('coord_a', 'PA-1'),
      sees('coord_a', 'PB-1'),
      sees('monitor_b', 'PB-1'),
      sees('monitor_b', 'PA-1'),
    ]);
    expect(seen[0]).toBe('coord_a PA-1: seen');
    expect(seen[1]).not.toBe('coord_a PB-1: seen');
    expect(seen[2]).toBe('monitor_b PB-1: seen');
    expect(seen[3]).not.toBe('monitor_b PA-1: seen');
    const statuses = await Promise.all(
      (['coord_a', 'monitor_b', 'analyst_a', 'owner_1'] as const).map(async (who) => ({
        who,
        s: await as(who, 'status', '--study', 'S'),
      })),
    );
    for (const { who, s } of statuses)
      expect([EXIT.ok, EXIT.decide], `${who}: ${s.stdout}${s.stderr}`).toContain(s.code);
  }, 300_000);

  it('a monitor may not export, nor a coordinator', async () => {
    const [m, c] = await Promise.all([
      as('monitor_b', 'export', '--study', 'S', '--out', join(ws.monitor_b.root, 'x')),
      as('coord_a', 'export', '--study', 'S', '--out', join(ws.coord_a.root, 'x')),
    ]);
    expect(m.code).toBe(EXIT.refused);
    expect(m.stderr + m.stdout).toContain('Your role in this study (monitor) cannot export data.');
    expect(c.stdout + c.stderr).toContain('Your role in this study (coordinator) cannot export data.');
  }, 300_000);

  it('an analyst exports the granted site, as the owner exports it but for the columns withheld, in every format', async () => {
    const sent = await sending;
    expect(sent.code, sent.stdout + sent.stderr).toBe(EXIT.ok);
    const exported = async (who: 'owner_1' | 'analyst_a', ...more: string[]) => {
      const out = join(ws[who].root, 'export');
      mkdirSync(out, { recursive: true });
      const args = ['export', '--study', 'S', '--out', out, '--folder', 'x', '--tz', 'UTC', ...more];
      const r = await as(who, ...args, '--extras', 'spss,stata,xlsx');
      expect(r.code, r.stdout + r.stderr).toBe(EXIT.ok);
      return join(out, 'x');
    };
    const [owners, analysts, linked] = await Promise.all([
      exported('owner_1', '--participant', 'PA-1', '--participant', 'PA-2'),
      exported('analyst_a'),
      as('analyst_a', 'export', '--study', 'S', '--out', ws.analyst_a.root, '--link-file'),
    ]);
    expect(linked.code).toBe(EXIT.usage);
    expect(linked.stdout + linked.stderr).toContain("which only the study's owner may read");
    const files = (dir: string) => readdirSync(dir).sort();
    expect(files(analysts)).toEqual(files(owners));
    expect(files(analysts)).toEqual(expect.arrayContaining(['study.xlsx', 'load.sps', 'load.do']));
    // file_name is read from the recording's source path, which an analyst may not read (access.ts).
    const withheld: Record<string, readonly string[]> = {
      'recordings.csv': ['file_name'],
      'measures_wide.csv': ['file_name'],
      'visits.csv': ['file_name'],
    };
    for (const name of files(owners).filter((f) => f.endsWith('.csv'))) {
      const owner = readCsv(join(owners, name));
      const gone = withheld[name] ?? [];
      const kept = owner.header.map((h, i) => [h, i] as const).filter(([h]) => !gone.includes(h));
      expect(
        gone.every((h) => owner.header.includes(h)),
        name,
      ).toBe(true);
      const analyst = readCsv(join(analysts, name));
      expect(analyst.header, name).toEqual(kept.map(([h]) => h));
      expect(analyst.rows, name).toEqual(owner.rows.map((row) => kept.map(([, i]) => row[i])));
    }
    const all = (dir: string) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((f) => f.isFile())
        .map((f) => readFileSync(join(f.parentPath, f.name), 'latin1'))
        .join('\n');
    expect(all(owners)).toContain('PA-1_w1.wav');
    const text = all(analysts);
    expect(text).toContain('PA-1');
    expect(text).not.toContain('PB-1');
    expect(text).not.toMatch(/PA-1_w1\.wav|week-a/);
    const codebook = readFileSync(join(analysts, 'codebook.md'), 'utf8');
    expect(codebook).toContain('## Columns left out');
    expect(codebook).toMatch(/`recordings\.csv` \| `file_name` \| `recordings\.source_path`/);
  }, 400_000);

  it("the owner's wait returns when all that is left waits for a workstation that is away, naming it", async () => {
    const dir = join(ws.admin.root, 'week-a2');
    mkdirSync(dir);
    const later = join(dir, 'PA-2_w2.wav');
    writeFileSync(later, makeWav({ seconds: 42, speechSeconds: 36, seed: 120 }));
    const r = await as('coord_a', ...importing(dir));
    expect(r.code, r.stdout + r.stderr).toBe(EXIT.ok);
    // Only coord_a's workstation holds the file (gone from the folder), and it is away from now on. A
    // coordinator's import of a known participant's file is left pending (it cannot read the account
    // link): here it is queued, as it would be once the participant's account is found.
    rmSync(later);
    cluster.superuser(
      "UPDATE recordings SET upload_state = 'queued' WHERE source_path LIKE '%week-a2%'",
      'study',
    );
    cluster.superuser(
      "UPDATE workstations SET last_seen_at = '2026-01-01T00:00:00.000Z' WHERE login = 'coord_a'",
      'study',
    );
    const started = Date.now();
    const waited = await as('owner_1', 'wait', '--study', 'S', '--timeout', '120');
    expect(waited.code, waited.stdout + waited.stderr).toBe(EXIT.awayWorkstation);
    expect(Date.now() - started).toBeLessThan(60_000);
    const line = jsonLines(waited.stdout).find((l) => l['kind'] === 'waiting-for-workstation');
    expect(line?.['message']).toBe(
      `1 recording waiting for ${workstationName(ws.coord_a.home)} (coord_a), away since 2026-01-01T00:00:00.000Z: only that workstation holds its file.`,
    );
  }, 300_000);

  it('curation by one member is undone by another, with the refusal when the recording changed since', async () => {
    const rec = (await superStore.get<{ id: number }>(
      `SELECT r.id FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE p.code = 'PA-1'`,
    ))!.id;
    const exclude = () =>
      as('coord_a', 'curate', 'exclude', '--study', 'S', '--recording', String(rec), '--reason', 'noisy');
    const ex = await exclude();
    expect(ex.code, ex.stdout + ex.stderr).toBe(EXIT.ok);
    const act = (jsonLines(ex.stdout).find((l) => l['kind'] === 'curated') as { act: number }).act;
    const undone = await as('owner_1', 'curate', 'undo', '--study', 'S', '--act', String(act));
    expect(undone.code, undone.stdout + undone.stderr).toBe(EXIT.ok);
    const again = await exclude();
    const act2 = (jsonLines(again.stdout).find((l) => l['kind'] === 'curated') as { act: number }).act;
    expect(
      (
        await as(
          'coord_ab',
          'curate',
          'restore',
          '--study',
          'S',
          '--recording',
          String(rec),
          '--reason',
          'fine',
        )
      ).code,
    ).toBe(EXIT.ok);
    const late = await as('owner_1', 'curate', 'undo', '--study', 'S', '--act', String(act2));
    expect(late.code).toBe(EXIT.refused);
    const other = await as('coord_b', 'curate', 'undo', '--study', 'S', '--act', String(act));
    expect(other.code).not.toBe(EXIT.ok);
    const acts = await superStore.all<{ member: string; workstation: string }>(
      'SELECT member, workstation FROM curation_acts ORDER BY id',
    );
    expect(acts.map((a) => a.member)).toEqual(['coord_a', 'owner_1', 'coord_a', 'coord_ab']);
    // Each act names the workstation of the member's workspace, the name its claims and files carry.
    expect(acts.map((a) => a.workstation)).toEqual(
      (['coord_a', 'owner_1', 'coord_a', 'coord_ab'] as const).map((who) => workstationName(ws[who].home)),
    );
    const audit = await superStore.all<{ member: string; site_code: string | null; kind: string }>(
      `SELECT member, site_code, kind FROM audit_log WHERE kind LIKE 'recording_%' OR kind = 'curation_undone' ORDER BY id`,
    );
    expect(audit).toEqual([
      { member: 'coord_a', site_code: 'a', kind: 'recording_excluded' },
      { member: 'owner_1', site_code: 'a', kind: 'curation_undone' },
      { member: 'coord_a', site_code: 'a', kind: 'recording_excluded' },
      { member: 'coord_ab', site_code: 'a', kind: 'recording_restored' },
    ]);
  }, 300_000);

  it('keeps one chain with two logins appending at once; the owner verifies it, a member is told who can', async () => {
    const stores: Store[] = [];
    for (const who of ['coord_a', 'monitor_b'] as const) {
      const c = await connectPostgres({ ...cluster.address, user: who }, PASSWORD(who));
      if (!c.ok) throw new Error(c.error.message);
      stores.push(c.value);
    }
    const study = (await superStore.get<{ id: number }>("SELECT id FROM studies WHERE name = 'S'"))!.id;
    try {
      await Promise.all(
        stores.flatMap((s) =>
          Array.from({ length: 15 }, (_, i) =>
            appendAuditAlone(s, {
              at: new Date().toISOString(),
              kind: 'export_written',
              studyId: study,
              detail: { rows: i },
            }),
          ),
        ),
      );
    } finally {
      for (const s of stores) await s.close();
    }
    const members = await superStore.all<{ member: string; n: number }>(
      "SELECT member, count(*)::int AS n FROM audit_log WHERE kind = 'export_written' AND detail <> '{}' GROUP BY member ORDER BY member",
    );
    expect(members).toEqual(
      expect.arrayContaining([
        { member: 'coord_a', n: 15 },
        { member: 'monitor_b', n: 15 },
      ]),
    );
    const ok = await as('owner_1', 'audit', 'verify');
    expect(ok.code, ok.stdout + ok.stderr).toBe(EXIT.ok);
    const member = await as('coord_a', 'audit', 'verify');
    expect(member.code).toBe(EXIT.refused);
    expect(member.stderr + member.stdout).toContain(
      'Your role in this study (coordinator) cannot check the whole audit log.',
    );

    cluster.superuser('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change', 'study');
    cluster.superuser(`UPDATE audit_log SET detail = '{"rows":99}' WHERE id = 3`, 'study');
    const broken = await as('owner_1', 'audit', 'verify');
    expect(broken.code).toBe(EXIT.auditBroken);
    expect(broken.stdout + broken.stderr).toMatch(/\b3\b/);
  }, 300_000);

  it('says no password and no raw permission error anywhere', () => {
    for (const r of said) {
      for (const who of WHO) expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD(who));
      if (!r.stdout.includes('"kind":"progress","progress":{"stage"'))
        expect(`${r.stdout}${r.stderr}`).not.toMatch(/permission denied/i);
    }
  });
});
