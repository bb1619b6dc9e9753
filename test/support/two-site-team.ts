/**
 * A team study at two clinics on a throwaway PostgreSQL 15 server, for the window's team journeys: the
 * database made a team's with `voicescope team init`, an owner and a coordinator at each site added
 * with `team member add`, and the study's rows written by the administrator (the tables' owner, whom row
 * security does not bind): participants and recordings at both sites, and two workstations, one
 * holding files and sending, one away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, main } from '../../main/cli/voicescope';
import { connectPostgres } from '../../main/db/store/connect';
import type { Store } from '../../main/db/store/types';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster';

export const TEAM_MEMBERS = {
  owner_1: { role: 'owner', sites: [] },
  coord_a: { role: 'coordinator', sites: ['a'] },
  coord_b: { role: 'coordinator', sites: ['b'] },
} as const;
export type TeamLogin = keyof typeof TEAM_MEMBERS;
export const teamPassword = (who: TeamLogin): string => `pw-${who}-long-enough-7`;

export const TEAM_STUDY = 'Two clinics';
/** The participants of each site. */
export const SITE_PARTICIPANTS = { a: ['A-01', 'A-02'], b: ['B-01', 'B-02', 'B-03'] } as const;

export interface TwoSiteTeam {
  readonly cluster: PostgresCluster;
  /** The database's address as a member types it: no login, no password. */
  readonly address: string;
  readonly studyId: number;
  stop(): Promise<void>;
}

const NOW = "'2026-03-02T09:00:00.000Z'";

const seedStudy = async (admin: Store): Promise<number> => {
  const one = async (sql: string) => Number((await admin.get<{ id: number }>(`${sql} RETURNING id`))!.id);
  const profile = await one(
    `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES ('Lab service', 'https://speech.example.org', 'v1.3', ${NOW})`,
  );
  const study = await one(
    `INSERT INTO studies (name, profile_id, created_at) VALUES ('${TEAM_STUDY}', ${profile}, ${NOW})`,
  );
  await admin.run(
    `INSERT INTO study_sites (study_id, code, name, created_at) VALUES (${study}, 'main', 'Main site', ${NOW}), (${study}, 'a', 'Clinic A', ${NOW}), (${study}, 'b', 'Clinic B', ${NOW})`,
  );
  await admin.run(
    `INSERT INTO workstations (name, login, first_seen_at, last_seen_at) VALUES
       ('clinic-a-pc', 'coord_a', ${NOW}, now()::text), ('clinic-b-pc', 'coord_b', ${NOW}, ${NOW})`,
  );
  for (const [site, codes] of Object.entries(SITE_PARTICIPANTS))
    for (const [i, code] of codes.entries()) {
      const p = await one(
        `INSERT INTO participants (study_id, code, created_at, site_code) VALUES (${study}, '${code}', ${NOW}, '${site}')`,
      );
      const r = await one(
        `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, created_at)
         VALUES (${study}, ${p}, '/clinic-${site}/${code}_w1.wav', 'h-${code}', 1000, '2026-03-0${i + 1}T10:00:00.000Z', 'filename', ${NOW})`,
      );
      await admin.run(
        `INSERT INTO recording_files (recording_id, workstation, path, sha256, checked_at) VALUES (${r}, 'clinic-${site}-pc', '/clinic-${site}/${code}_w1.wav', 'h-${code}', ${NOW})`,
      );
      // Clinic A's workstation is sending its first recording now.
      if (code === 'A-01')
        await admin.run(
          `UPDATE recordings SET upload_state = 'uploading', claimed_by = 'clinic-a-pc' WHERE id = ${r}`,
        );
    }
  return study;
};

export const startTwoSiteTeam = async (): Promise<TwoSiteTeam> => {
  const cluster = await startPostgresCluster();
  const home = mkdtempSync(join(tmpdir(), 'vs-team-admin-'));
  const cli = async (...args: string[]) => {
    const code = await main([...args, '--home', home, '--database', cluster.url(false), '--json']);
    if (code !== EXIT.ok) throw new Error(`voicescope ${args.join(' ')} exited ${code}`);
  };
  // The administrator: the login that owns the database and may create roles (never a superuser).
  cluster.superuser('ALTER ROLE voicescope CREATEROLE');
  if ((await main(['team', 'init', '--home', home, '--database', cluster.url(true), '--json'])) !== EXIT.ok)
    throw new Error('voicescope team init failed');
  const connected = await connectPostgres(cluster.address, cluster.password);
  if (!connected.ok) throw new Error(connected.error.message);
  const admin = connected.value;
  const studyId = await seedStudy(admin);
  await admin.close();
  for (const [login, m] of Object.entries(TEAM_MEMBERS)) {
    process.env['VS_MEMBER_PASSWORD'] = teamPassword(login as TeamLogin);
    const sites = m.sites.flatMap((s) => ['--site', s]);
    await cli(
      'team',
      'member',
      'add',
      '--login',
      login,
      '--role',
      m.role,
      ...(m.sites.length ? ['--study', TEAM_STUDY, ...sites] : []),
      '--key-env',
      'VS_MEMBER_PASSWORD',
    );
  }
  delete process.env['VS_MEMBER_PASSWORD'];
  const { host, port, database, caFile } = cluster.address;
  return {
    cluster,
    address: `postgres://${host}:${port}/${database}?sslmode=verify-full&sslrootcert=${caFile}`,
    studyId,
    async stop() {
      cluster.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
};
