/**
 * A team study's row-level security on a real PostgreSQL 15 server. The database is made a team
 * database through the command line (`team init`, `team site add`, `team member add`), then each role's
 * own login reads and writes every table with raw SQL: one row per table x role x operation x site.
 * An owner reaches every site; a coordinator reads and writes only their own site's participants,
 * recordings, results, curation acts and audit entries; an analyst and a monitor read only the site
 * granted (the analyst without the columns that could name a person); the participant-to-account link
 * is the owner's alone. Dropping one policy, or turning row security off on one table, makes the table
 * fail; `team init` run again puts it back.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT, main } from '../../../../main/cli/voicescope';
import { claimDuePoll } from '../../../../main/db/repos/polls.repo';
import { takeBudgetToken } from '../../../../main/db/repos/request-budget.repo';
import { connectPostgres } from '../../../../main/db/store/connect';
import { openChosenStudyService } from '../../../../main/services/open-study-service';
import type { Store } from '../../../../main/db/store/types';
import { STUDY_TABLES, TEAM_TABLES } from '../../../../main/db/team/access';
import { startPostgresCluster, type PostgresCluster } from '../../../support/postgres-cluster';
import { describeWithTool } from '../../../support/reference-tools';

const NOW = "'2026-01-01T00:00:00.000Z'";
const SITES = ['a', 'b'] as const;
type Site = (typeof SITES)[number];
type Op = 'select' | 'insert' | 'update' | 'delete';
const OPS: readonly Op[] = ['select', 'insert', 'update', 'delete'];

/** Each login of the test: its role and the sites granted (the owner reaches every site). */
const MEMBERS = {
  owner_1: { role: 'owner', sites: [] },
  coord_a: { role: 'coordinator', sites: ['a'] },
  coord_b: { role: 'coordinator', sites: ['b'] },
  analyst_a: { role: 'analyst', sites: ['a'] },
  monitor_b: { role: 'monitor', sites: ['b'] },
} as const satisfies Record<string, { role: string; sites: readonly Site[] }>;
type Who = keyof typeof MEMBERS;
const WHO = Object.keys(MEMBERS) as Who[];
const PASSWORD = (who: Who) => `pw-${who}-long-enough-7`;

/** The rows of one site (or of the study) a case works on. */
interface Ids {
  study: number;
  profile: number;
  p: number;
  r: number;
  r2: number;
  r3: number;
  auditId: number;
  lastHash: string;
}
interface Spec {
  /** The site's row(s) of the table. */
  where(i: Ids, site: Site): string;
  insert(i: Ids, site: Site): string;
  /** An UPDATE's SET clause that changes nothing but is still a write. */
  set: string;
  /** Append-only: a write the policy lets through is still refused by the table's trigger. */
  appendOnly?: boolean;
}

const byRecording = (table: string, insert: (i: Ids) => string, set: string): [string, Spec] => [
  table,
  { where: (i) => `recording_id = ${i.r}`, insert: (i) => `INSERT INTO ${table} ${insert(i)}`, set },
];

const SITE_TABLES: Record<string, Spec> = {
  participants: {
    where: (i) => `id = ${i.p}`,
    insert: (i, s) =>
      `INSERT INTO participants (study_id, code, created_at, site_code) VALUES (${i.study}, 'NEW', ${NOW}, '${s}')`,
    set: 'notes = notes',
  },
  participant_status_history: {
    where: (i) => `participant_id = ${i.p}`,
    insert: (i) =>
      `INSERT INTO participant_status_history (participant_id, status, status_on, recorded_at) VALUES (${i.p}, 'active', '2026-01-01', ${NOW})`,
    set: 'reason = reason',
  },
  participant_attributes: {
    where: (i) => `participant_id = ${i.p}`,
    insert: (i) =>
      `INSERT INTO participant_attributes (participant_id, key, value, updated_at) VALUES (${i.p}, 'k2', 'v', ${NOW})`,
    set: 'value = value',
  },
  recordings: {
    where: (i) => `id = ${i.r}`,
    insert: (i) =>
      `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, created_at)
       VALUES (${i.study}, ${i.p}, '/x/new.wav', 'h', 1, ${NOW}, 'filename', ${NOW})`,
    set: 'session_label = session_label',
  },
  ...Object.fromEntries([
    byRecording(
      'measure_values',
      (i) =>
        `(recording_id, measure_key, participant_id, recorded_at, value_num) VALUES (${i.r}, 'm2', ${i.p}, ${NOW}, 1)`,
      'value_num = value_num',
    ),
    byRecording(
      'analyses',
      (i) => `(recording_id, type, state, requested_at) VALUES (${i.r}, 'parkinsons', 'processing', ${NOW})`,
      'polls = polls',
    ),
    byRecording(
      'unlisted_analyses',
      (i) => `(recording_id, name, raw, received_at) VALUES (${i.r}, 'n2', '{}', ${NOW})`,
      'raw = raw',
    ),
    byRecording(
      'data_quality_flags',
      (i) =>
        `(recording_id, origin, code, path, expected, flagged_at) VALUES (${i.r}, 'poll', 'c', 'p', 'e', ${NOW})`,
      'code = code',
    ),
    byRecording(
      'recording_visits',
      (i) => `(recording_id, visit_id, set_at) VALUES (${i.r3}, NULL, ${NOW})`,
      'set_at = set_at',
    ),
    byRecording(
      'local_measurements',
      (i) =>
        `(recording_id, measured_at, engine_version, settings, audio_path) VALUES (${i.r3}, ${NOW}, '1', '{}', '/a')`,
      'problem = problem',
    ),
    byRecording(
      'local_measures',
      (i) => `(recording_id, measure, value) VALUES (${i.r}, 'm2', 1)`,
      'value = value',
    ),
    byRecording(
      'local_pitch_tracks',
      (i) => `(recording_id, first_time, step, frames, f0) VALUES (${i.r2}, 0, 0.01, 0, decode('', 'hex'))`,
      'frames = frames',
    ),
    byRecording(
      'recording_files',
      (i) =>
        `(recording_id, workstation, path, sha256, checked_at) VALUES (${i.r2}, 'ws-admin', '/p', 'h', ${NOW})`,
      'checked_at = checked_at',
    ),
    byRecording(
      'needs_you_dismissals',
      (i) => `(recording_id, upload_state, act_id) VALUES (${i.r3}, 'rejected', 1)`,
      'upload_state = upload_state',
    ),
  ]),
  curation_acts: {
    where: (i) => `participant_id = ${i.p}`,
    insert: (i) =>
      `INSERT INTO curation_acts (study_id, at, who, act, participant_id, before, after) VALUES (${i.study}, ${NOW}, 'x', 'status', ${i.p}, '{}', '{}')`,
    set: 'audit_id = 99',
  },
  audit_log: {
    where: (_, s) => `site_code = '${s}'`,
    insert: (i, s) =>
      `INSERT INTO audit_log (id, at, kind, study_id, subject, detail, prev_hash, hash, site_code)
       VALUES (${i.auditId}, ${NOW}, 'k', ${i.study}, 'S', '{}', '${i.lastHash}', '${'e'.repeat(64)}', '${s}')`,
    set: 'detail = detail',
    appendOnly: true,
  },
  event_log: {
    where: (i) => `recording_id = ${i.r}`,
    insert: (i) =>
      `INSERT INTO event_log (at, kind, study_id, recording_id, detail) VALUES (${NOW}, 'k', ${i.study}, ${i.r}, '{}')`,
    set: 'kind = kind',
    appendOnly: true,
  },
};

const studyRow = (
  table: string,
  values: (i: Ids) => string,
  set: string,
  where = (i: Ids) => `study_id = ${i.study}`,
) => ({
  where,
  insert: (i: Ids) => `INSERT INTO ${table} ${values(i)}`,
  set,
});
const STUDY_WIDE: Record<
  string,
  Omit<Spec, 'where' | 'insert'> & { where(i: Ids): string; insert(i: Ids): string }
> = {
  studies: studyRow(
    'studies',
    () => `(name, created_at) VALUES ('Other', ${NOW})`,
    'name = name',
    (i) => `id = ${i.study}`,
  ),
  study_sites: studyRow(
    'study_sites',
    (i) => `(study_id, code, name, created_at) VALUES (${i.study}, 'zz', 'Z', ${NOW})`,
    'name = name',
  ),
  study_visits: studyRow(
    'study_visits',
    (i) => `(study_id, position, name, target_day) VALUES (${i.study}, 9, 'V9', 60)`,
    'name = name',
  ),
  study_reliability: studyRow(
    'study_reliability',
    (i) => `(study_id, measure_key, r, set_at) VALUES (${i.study}, 'k2', 0.5, ${NOW})`,
    'note = note',
  ),
  study_chart_choices: studyRow(
    'study_chart_choices',
    (i) => `(study_id, view, choice, updated_at) VALUES (${i.study}, 'v2', 'c', ${NOW})`,
    'choice = choice',
  ),
  batches: studyRow(
    'batches',
    (i) => `(study_id, created_at, analyses) VALUES (${i.study}, ${NOW}, '[]')`,
    'label = label',
  ),
  service_profiles: studyRow(
    'service_profiles',
    () => `(name, base_url, api_version, created_at) VALUES ('p2', 'http://x', 'v1.3', ${NOW})`,
    'name = name',
    () => `name = 'spare'`,
  ),
  usage_history: studyRow(
    'usage_history',
    (i) => `(profile_id, at, uploads_remaining, detail) VALUES (${i.profile}, ${NOW}, 5, '{}')`,
    'detail = detail',
    (i) => `profile_id = ${i.profile}`,
  ),
  request_budgets: studyRow(
    'request_budgets',
    (i) => `(profile_id, kind, tokens, refilled_at) VALUES (${i.profile}, 'uploads', 1, ${NOW})`,
    'tokens = tokens',
    (i) => `profile_id = ${i.profile}`,
  ),
  settings: studyRow(
    'settings',
    () => `(key, value) VALUES ('k2', 'v')`,
    'value = value',
    () => `key = 'k1'`,
  ),
  // Each login's own workstation: every member reads them all and writes only its own.
  workstations: studyRow(
    'workstations',
    () =>
      `(name, login, first_seen_at, last_seen_at) VALUES ('new-' || current_user, CAST(current_user AS text), ${NOW}, ${NOW})`,
    'last_seen_at = last_seen_at',
    () => 'login = CAST(current_user AS text)',
  ),
  schema_version: studyRow(
    'schema_version',
    () => `(version) VALUES (1)`,
    'version = version',
    () => 'true',
  ),
  team_members: studyRow(
    'team_members',
    () => `(login, role, added_at) VALUES ('zz', 'monitor', ${NOW})`,
    'role = role',
    () => `login = 'coord_a'`,
  ),
  team_member_sites: studyRow(
    'team_member_sites',
    (i) => `(login, study_id, site_code) VALUES ('coord_a', ${i.study}, 'b')`,
    'site_code = site_code',
    () => `login = 'coord_a'`,
  ),
};
const ADMINISTERED = new Set(TEAM_TABLES.map((t) => t.table));

/** What a role may do to a table's rows at a site: the specification the database must meet. */
const expected = (who: Who, table: string, op: Op, site: Site | 'study'): string => {
  const m = MEMBERS[who];
  const owner = m.role === 'owner';
  const access = STUDY_TABLES.find((t) => t.table === table);
  const writes =
    !ADMINISTERED.has(table) &&
    (owner || (m.role === 'coordinator' && access!.writers.includes('coordinator')));
  const reaches = site === 'study' || owner || (m.sites as readonly string[]).includes(site);
  if (table === 'workstations') return op === 'select' ? 'seen' : 'done';
  if (op === 'select') return reaches ? 'seen' : 'unseen';
  if (!writes) return 'refused';
  if (op === 'insert') return reaches ? 'done' : 'refused';
  if (!reaches) return 'none';
  return SITE_TABLES[table]?.appendOnly ? 'refused' : 'done';
};

const ROLLBACK = new Error('rolled back on purpose');
/** Runs one statement in a transaction that is always rolled back, and says what came of it. */
const attempt = async (
  store: Store,
  op: Op,
  table: string,
  where: string,
  insert: string,
  set: string,
): Promise<string> => {
  let outcome = '';
  try {
    await store.transaction(async (tx) => {
      if (op === 'select') {
        const rows = await tx.all(`SELECT 1 FROM ${table} WHERE ${where}`);
        outcome = rows.length ? 'seen' : 'unseen';
      } else {
        const sql =
          op === 'insert'
            ? insert
            : op === 'update'
              ? `UPDATE ${table} SET ${set} WHERE ${where}`
              : `DELETE FROM ${table} WHERE ${where}`;
        const r = await tx.run(sql);
        outcome = op === 'insert' || r.changes > 0 ? 'done' : 'none';
      }
      throw ROLLBACK;
    });
  } catch (e) {
    if (e === ROLLBACK) return outcome;
    const code = String((e as { code?: unknown }).code);
    // 42501: no privilege, or a row-level security policy refused the row; P0001: a trigger refused it.
    if (code === '42501' || code === 'P0001') return 'refused';
    return `error ${code}: ${e instanceof Error ? e.message : String(e)}`;
  }
  return outcome;
};

describeWithTool('postgresql-15', 'a team study on PostgreSQL: roles, sites and row-level security', () => {
  let cluster: PostgresCluster;
  let home: string;
  let url: string;
  let admin: Store;
  const as = {} as Record<Who, Store>;
  const ids = {} as Record<Site, Ids>;
  const cli = (...args: string[]) => main([...args, '--home', home, '--database', url, '--json']);

  const seedSite = async (study: number, profile: number, site: Site, visit: number): Promise<Ids> => {
    const one = async (sql: string) => Number((await admin.get<{ id: number }>(`${sql} RETURNING id`))!.id);
    const p = await one(
      `INSERT INTO participants (study_id, code, created_at, site_code) VALUES (${study}, 'P-${site}', ${NOW}, '${site}')`,
    );
    const rec = (n: number) =>
      one(`INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, created_at)
           VALUES (${study}, ${p}, '/data/${site}${n}.wav', 'h${site}${n}', 1, ${NOW}, 'filename', ${NOW})`);
    const [r, r2, r3] = [await rec(1), await rec(2), await rec(3)];
    for (const sql of [
      `INSERT INTO participant_status_history (participant_id, status, status_on, recorded_at) VALUES (${p}, 'active', '2026-01-01', ${NOW})`,
      `INSERT INTO participant_attributes (participant_id, key, value, updated_at) VALUES (${p}, 'k1', 'v', ${NOW})`,
      `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num) VALUES (${r}, 'm1', ${p}, ${NOW}, 1)`,
      `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (${r}, 'wellbeing', 'completed', ${NOW})`,
      `INSERT INTO unlisted_analyses (recording_id, name, raw, received_at) VALUES (${r}, 'n1', '{}', ${NOW})`,
      `INSERT INTO data_quality_flags (recording_id, origin, code, path, expected, flagged_at) VALUES (${r}, 'poll', 'c', 'p', 'e', ${NOW})`,
      `INSERT INTO recording_visits (recording_id, visit_id, set_at) VALUES (${r}, ${visit}, ${NOW})`,
      ...[r, r2].map(
        (x) =>
          `INSERT INTO local_measurements (recording_id, measured_at, engine_version, settings, audio_path) VALUES (${x}, ${NOW}, '1', '{}', '/a')`,
      ),
      `INSERT INTO local_measures (recording_id, measure, value) VALUES (${r}, 'm1', 1)`,
      `INSERT INTO local_pitch_tracks (recording_id, first_time, step, frames, f0) VALUES (${r}, 0, 0.01, 0, decode('', 'hex'))`,
      `INSERT INTO needs_you_dismissals (recording_id, upload_state, act_id) VALUES (${r}, 'rejected', 1)`,
      `INSERT INTO recording_files (recording_id, workstation, path, sha256, checked_at) VALUES (${r}, 'ws-admin', '/data/${site}1.wav', 'h', ${NOW})`,
      `INSERT INTO curation_acts (study_id, at, who, act, participant_id, before, after) VALUES (${study}, ${NOW}, 'x', 'status', ${p}, '{}', '{}')`,
      `INSERT INTO event_log (at, kind, study_id, recording_id, detail) VALUES (${NOW}, 'k', ${study}, ${r}, '{}')`,
    ])
      await admin.run(sql);
    return { study, profile, p, r, r2, r3, auditId: 0, lastHash: '' };
  };

  /** Audit entries of site a, site b and the study as a whole, chained as the log requires. */
  const seedAudit = async (study: number): Promise<{ next: number; last: string }> => {
    let last = '';
    const sites: (Site | null)[] = ['a', 'b', null];
    for (const [n, site] of sites.entries()) {
      const hash = createHash('sha256').update(`entry ${n}`).digest('hex');
      await admin.run(
        `INSERT INTO audit_log (id, at, kind, study_id, subject, detail, prev_hash, hash, site_code)
         VALUES (${n + 1}, ${NOW}, 'k', ${study}, 'S', '{}', '${last}', '${hash}', ${site ? `'${site}'` : 'NULL'})`,
      );
      last = hash;
    }
    return { next: sites.length + 1, last };
  };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    home = mkdtempSync(join(tmpdir(), 'vs-team-'));
    // The administrator: the login that owns the database, allowed to create roles (never a superuser).
    cluster.superuser('ALTER ROLE voicescope CREATEROLE');
    url = cluster.url(true);
    expect(await cli('team', 'init')).toBe(EXIT.ok);
    url = cluster.url(false);
    const connected = await connectPostgres(cluster.address, cluster.password);
    if (!connected.ok) throw new Error(connected.error.message);
    admin = connected.value;

    const profile = Number(
      (await admin.get<{ id: number }>(
        `INSERT INTO service_profiles (name, base_url, api_version, key_ref, created_at) VALUES ('lab', 'http://svc', 'v1.3', 'key-file:lab', ${NOW}) RETURNING id`,
      ))!.id,
    );
    await admin.run(
      `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES ('spare', 'http://svc', 'v1.3', ${NOW})`,
    );
    const study = Number(
      (await admin.get<{ id: number }>(
        `INSERT INTO studies (name, profile_id, created_at) VALUES ('S', ${profile}, ${NOW}) RETURNING id`,
      ))!.id,
    );
    await admin.run(
      `INSERT INTO study_sites (study_id, code, name, created_at) VALUES (${study}, 'main', 'Main site', ${NOW})`,
    );
    for (const sql of [
      `INSERT INTO study_visits (study_id, position, name, target_day) VALUES (${study}, 1, 'V1', 0)`,
      `INSERT INTO study_reliability (study_id, measure_key, r, set_at) VALUES (${study}, 'k1', 0.5, ${NOW})`,
      `INSERT INTO study_chart_choices (study_id, view, choice, updated_at) VALUES (${study}, 'v1', 'c', ${NOW})`,
      `INSERT INTO batches (study_id, created_at, analyses) VALUES (${study}, ${NOW}, '[]')`,
      `INSERT INTO usage_history (profile_id, at, uploads_remaining, detail) VALUES (${profile}, ${NOW}, 5, '{}')`,
      `INSERT INTO settings (key, value) VALUES ('k1', 'v')`,
      `INSERT INTO request_budgets (profile_id, kind, tokens, refilled_at) VALUES (${profile}, 'requests', 4, ${NOW})`,
    ])
      await admin.run(sql);
    expect(await cli('team', 'site', 'add', '--study', 'S', '--site', 'a', '--name', 'Clinic A')).toBe(
      EXIT.ok,
    );
    expect(await cli('team', 'site', 'add', '--study', 'S', '--site', 'b', '--name', 'Clinic B')).toBe(
      EXIT.ok,
    );
    for (const login of ['admin', ...WHO])
      await admin.run(
        `INSERT INTO workstations (name, login, first_seen_at, last_seen_at) VALUES ('ws-${login}', '${login}', ${NOW}, ${NOW})`,
      );
    const visit = Number((await admin.get<{ id: number }>('SELECT id FROM study_visits'))!.id);
    for (const site of SITES) ids[site] = await seedSite(study, profile, site, visit);
    const audit = await seedAudit(study);
    for (const site of SITES) ids[site] = { ...ids[site], auditId: audit.next, lastHash: audit.last };

    for (const who of WHO) {
      const m = MEMBERS[who];
      process.env['VS_MEMBER_PASSWORD'] = PASSWORD(who);
      const sites = m.sites.flatMap((s) => ['--site', s]);
      const study = m.sites.length ? ['--study', 'S'] : [];
      expect(
        await cli(
          'team',
          'member',
          'add',
          '--login',
          who,
          '--role',
          m.role,
          ...study,
          ...sites,
          '--key-env',
          'VS_MEMBER_PASSWORD',
        ),
      ).toBe(EXIT.ok);
      const c = await connectPostgres({ ...cluster.address, user: who }, PASSWORD(who));
      if (!c.ok) throw new Error(c.error.message);
      as[who] = c.value;
    }
    delete process.env['VS_MEMBER_PASSWORD'];
  }, 300_000);

  afterAll(async () => {
    for (const s of Object.values(as)) await s.close();
    await admin?.close();
    cluster?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  /** Every login x operation x site on one table: what happened, and what the rules say should. */
  const outcomes = async (table: string) => {
    const actual: string[] = [];
    const wanted: string[] = [];
    const site = SITE_TABLES[table];
    const targets: (Site | 'study')[] = site ? [...SITES] : ['study'];
    for (const who of WHO)
      for (const op of OPS)
        for (const target of targets) {
          const i = ids[target === 'study' ? 'a' : target];
          const spec = site ?? STUDY_WIDE[table]!;
          const where = site ? site.where(i, target as Site) : STUDY_WIDE[table]!.where(i);
          const insert = site ? site.insert(i, target as Site) : STUDY_WIDE[table]!.insert(i);
          const label = `${who} ${op} ${target}`;
          actual.push(`${label}: ${await attempt(as[who], op, table, where, insert, spec.set)}`);
          wanted.push(`${label}: ${expected(who, table, op, target)}`);
        }
    return { actual, wanted };
  };

  it('covers every table of the team database, each with row security on', async () => {
    const tables = await admin.all<{ name: string; rls: boolean }>(
      `SELECT c.relname AS name, c.relrowsecurity AS rls FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
    );
    expect(tables.map((t) => t.name)).toEqual(
      [...Object.keys(SITE_TABLES), ...Object.keys(STUDY_WIDE)].sort(),
    );
    expect(tables.filter((t) => !t.rls)).toEqual([]);
    expect([...STUDY_TABLES, ...TEAM_TABLES].map((t) => t.table).sort()).toEqual(tables.map((t) => t.name));
  });

  for (const table of [...Object.keys(SITE_TABLES), ...Object.keys(STUDY_WIDE)])
    it(`${table}: each role reads and writes only what its role and sites allow`, async () => {
      const { actual, wanted } = await outcomes(table);
      expect(actual).toEqual(wanted);
    }, 120_000);

  it("lets no member change or remove another member's workstation", async () => {
    for (const who of WHO.filter((w) => MEMBERS[w].role !== 'owner')) {
      const other = `login <> CAST(current_user AS text)`;
      expect(await attempt(as[who], 'update', 'workstations', other, '', 'last_seen_at = last_seen_at')).toBe(
        'none',
      );
      expect(await attempt(as[who], 'delete', 'workstations', other, '', '')).toBe('none');
      expect(
        await attempt(
          as[who],
          'insert',
          'workstations',
          '',
          `INSERT INTO workstations (name, login, first_seen_at, last_seen_at) VALUES ('fake', 'owner_1', ${NOW}, ${NOW})`,
          '',
        ),
      ).toBe('refused');
    }
  });

  it('keeps key references to the owner, the account link to the roles that send, and names from analysts', async () => {
    const column = (who: Who, sql: string) => attempt(as[who], 'select', sql, 'true', '', '');
    expect(await column('owner_1', 'participants')).toBe('seen');
    const read = async (who: Who, sql: string) => {
      try {
        await as[who].all(sql);
        return 'read';
      } catch (e) {
        return String((e as { code?: unknown }).code) === '42501' ? 'refused' : String(e);
      }
    };
    expect(await read('owner_1', 'SELECT account_id FROM participants')).toBe('read');
    expect(await read('owner_1', 'SELECT key_ref FROM service_profiles')).toBe('read');
    for (const who of ['coord_a', 'analyst_a', 'monitor_b'] as const) {
      expect(await read(who, 'SELECT key_ref FROM service_profiles')).toBe('refused');
      expect(await read(who, 'SELECT code, site_code, rec_count FROM participants')).toBe('read');
    }
    // A coordinator's workstation sends: it reads and writes its own sites' accounts, and no other site's.
    expect(
      await read('coord_a', 'SELECT account_id, account_requested_at, account_uncertain FROM participants'),
    ).toBe('read');
    const accountSites = await as.coord_a.all<{ site_code: string }>(
      'SELECT DISTINCT site_code FROM participants WHERE account_id IS NOT NULL OR account_id IS NULL',
    );
    expect(accountSites.map((r) => r.site_code)).toEqual(['a']);
    expect(
      await as.coord_a.run(`UPDATE participants SET account_requested_at = ${NOW} WHERE site_code = 'b'`),
    ).toEqual(expect.objectContaining({ changes: 0 }));
    for (const who of ['analyst_a', 'monitor_b'] as const)
      expect(await read(who, 'SELECT account_id FROM participants')).toBe('refused');
    await expect(as.analyst_a.run(`UPDATE participants SET account_id = 'x'`)).rejects.toMatchObject({
      code: '42501',
    });
    expect(await read('coord_a', 'SELECT notes FROM participants')).toBe('read');
    expect(await read('analyst_a', 'SELECT notes FROM participants')).toBe('refused');
    expect(await read('analyst_a', 'SELECT source_path FROM recordings')).toBe('refused');
    expect(await read('analyst_a', 'SELECT id, duration_seconds FROM recordings')).toBe('read');
  });

  it("lets a coordinator's engine claim only its sites' due polls and take tokens from the study's budget", async () => {
    const [a, b] = [ids.a, ids.b];
    const due = `recording_id IN (${a.r}, ${b.r})`;
    await admin.run(`UPDATE analyses SET state = 'processing', next_poll_at = ${NOW} WHERE ${due}`);
    const claims = async (who: Who) => {
      const got: (number | string)[] = [];
      try {
        await as[who].transaction(async (tx) => {
          for (let n = 0; n < 3; n++) {
            const row = await claimDuePoll(
              tx,
              a.profile,
              '2026-01-01T00:00:01.000Z',
              '2026-01-01T00:00:06.000Z',
            );
            if (row) got.push(row.id);
          }
          await takeBudgetToken(
            tx,
            { profileId: a.profile, kind: 'requests', ratePerSecond: 1, burst: 4 },
            '2026-01-01T00:00:01.000Z',
          );
          got.push('token taken');
          throw ROLLBACK;
        });
      } catch (e) {
        if (e !== ROLLBACK) got.push(String((e as { code?: unknown }).code));
      }
      return got.map(String);
    };
    try {
      expect(await claims('coord_a')).toEqual([String(a.r), 'token taken']);
      expect(await claims('coord_b')).toEqual([String(b.r), 'token taken']);
      expect((await claims('owner_1')).toSorted()).toEqual(
        [String(a.r), String(b.r), 'token taken'].toSorted(),
      );
      expect(await claims('analyst_a')).toEqual(['42501']);
    } finally {
      await admin.run(`UPDATE analyses SET state = 'completed', next_poll_at = NULL WHERE ${due}`);
    }
  });

  it('fails a table whose policy is dropped or whose row security is turned off, until team init runs again', async () => {
    await admin.run('DROP POLICY team_read ON recordings');
    await admin.run('ALTER TABLE participants DISABLE ROW LEVEL SECURITY');
    const recordings = await outcomes('recordings');
    const participants = await outcomes('participants');
    expect(recordings.actual).not.toEqual(recordings.wanted);
    expect(recordings.actual).toContain('coord_a select a: unseen');
    expect(participants.actual).not.toEqual(participants.wanted);
    expect(participants.actual).toContain('coord_a select b: seen');

    expect(await cli('team', 'init')).toBe(EXIT.ok);
    for (const table of ['recordings', 'participants']) {
      const again = await outcomes(table);
      expect(again.actual).toEqual(again.wanted);
    }
  }, 120_000);

  /** The address of the team database with another login and its password. */
  const addressOf = (login: string, password: string) =>
    url.replace('//voicescope@', `//${login}:${encodeURIComponent(password)}@`);
  const openAs = async (login: string, password: string) => {
    const opened = await openChosenStudyService(
      { workspaceDir: mkdtempSync(join(home, 'ws-')) },
      addressOf(login, password),
    );
    if (opened.ok) await opened.value.service.close();
    return opened.ok ? 'opened' : opened.error;
  };

  it('opens the study for a member with their own login, and refuses the superuser and the tables’ owner', async () => {
    cluster.superuser("ALTER ROLE postgres PASSWORD 'superuser-password-1'");
    expect(await openAs('coord_a', PASSWORD('coord_a'))).toBe('opened');
    expect(await openAs('postgres', 'superuser-password-1')).toMatch(
      /postgres is a superuser .* Connect with your own login/,
    );
    expect(await openAs('voicescope', cluster.password)).toMatch(
      /voicescope owns this team study's tables: it is for voicescope team init .* Connect with your own member login/,
    );
  }, 120_000);

  it('manages members and sites from the command line, refusing in words what it cannot do', async () => {
    process.env['VS_MEMBER_PASSWORD'] = 'another-long-password';
    const add = (...args: string[]) =>
      cli('team', 'member', 'add', ...args, '--key-env', 'VS_MEMBER_PASSWORD');
    expect(await add('--login', 'coord_a', '--role', 'monitor', '--study', 'S', '--site', 'a')).toBe(
      EXIT.refused,
    );
    expect(await add('--login', 'newbie', '--role', 'boss')).toBe(EXIT.usage);
    expect(await add('--login', 'newbie', '--role', 'coordinator')).toBe(EXIT.usage);
    expect(await add('--login', 'newbie', '--role', 'coordinator', '--study', 'S', '--site', 'c')).toBe(
      EXIT.refused,
    );
    expect(await cli('team', 'site', 'add', '--study', 'S', '--site', 'a', '--name', 'Again')).toBe(
      EXIT.refused,
    );
    delete process.env['VS_MEMBER_PASSWORD'];
    expect(await cli('team', 'member', 'add', '--login', 'newbie', '--role', 'monitor')).toBe(EXIT.usage);

    // A member's own login may not manage the team.
    const asMember = await main([
      'team',
      'member',
      'list',
      '--home',
      home,
      '--database',
      addressOf('coord_a', PASSWORD('coord_a')),
      '--json',
    ]);
    expect(asMember).toBe(EXIT.refused);

    // coord_b moves to site a as a monitor: it now reads a and no longer b, and writes nothing.
    expect(
      await cli(
        'team',
        'member',
        'set-role',
        '--login',
        'coord_b',
        '--role',
        'monitor',
        '--study',
        'S',
        '--site',
        'a',
      ),
    ).toBe(EXIT.ok);
    const seen = async (site: Site) =>
      attempt(as.coord_b, 'select', 'participants', `id = ${ids[site].p}`, '', '');
    expect([await seen('a'), await seen('b')]).toEqual(['seen', 'unseen']);
    expect(await attempt(as.coord_b, 'update', 'participants', `id = ${ids.a.p}`, '', 'notes = notes')).toBe(
      'refused',
    );

    const lists = await admin.all<{ login: string; role: string }>(
      'SELECT login, role FROM team_members ORDER BY login',
    );
    expect(lists).toContainEqual({ login: 'coord_b', role: 'monitor' });
    expect(await cli('team', 'member', 'list')).toBe(EXIT.ok);
    expect(await cli('team', 'site', 'list', '--study', 'S')).toBe(EXIT.ok);
    expect(await cli('team', 'site', 'list', '--study', 'Nope')).toBe(EXIT.refused);

    expect(await cli('team', 'member', 'remove', '--login', 'monitor_b')).toBe(EXIT.ok);
    const gone = await connectPostgres({ ...cluster.address, user: 'monitor_b' }, PASSWORD('monitor_b'));
    expect(gone.ok ? 'connected' : gone.error.code).toBe('DB_LOGIN_REFUSED');
  }, 120_000);
});
