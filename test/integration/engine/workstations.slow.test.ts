/**
 * Three workstations on one team study (a PostgreSQL 15 server), as three processes with three members
 * at two sites: the owner (importing at site a), the coordinator of site a and the coordinator of site
 * b, each with its own login, workspace and key store (the coordinators given the service's key by the
 * owner). Each imports its own files and runs the same study at once: each creates the accounts of the
 * participants it sees, uploads and polls, while each is SIGKILLed at random moments and started again.
 * Nothing is uploaded twice, no account is created twice, no recording is lost: each ends uploaded with
 * every analysis completed, or uncertain with the reason naming who stopped (a decision for a person);
 * every stored result is the service's; a coordinator's workstation sent only its own site's files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { connectPostgres } from '../../../main/db/store/connect';
import type { Store } from '../../../main/db/store/types';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { keyedClient } from '../../../main/services/key-address';
import { openChosenStudyService } from '../../../main/services/open-study-service';
import { openTeamAdmin } from '../../../main/services/team-service';
import { createKeyStore } from '../../../main/workspace/key-store';
import { workstationName } from '../../../main/workspace/workstation-name';
import { createSandboxStudy, startLabSandbox } from '../../support/lab-sandbox';
import { makeWav, seededRandom } from '../../fixtures/audio';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';
import { spawnTs, waitForLine } from '../../support/spawn';
import { resultsMatchService } from '../../soak/soak-checks';

const CHILD = join(import.meta.dirname, '../../support/workstation-child.ts');
/** Each member, the site its import puts new participants at, and the participants it imports. */
const MEMBERS = [
  { login: 'owner_1', role: 'owner', sites: [], importSite: 'a', codes: ['O-1', 'O-2', 'O-3'] },
  { login: 'coord_a', role: 'coordinator', sites: ['a'], importSite: 'a', codes: ['A-1', 'A-2', 'A-3'] },
  { login: 'coord_b', role: 'coordinator', sites: ['b'], importSite: 'b', codes: ['B-1', 'B-2', 'B-3'] },
] as const;
type Member = (typeof MEMBERS)[number];
const FILES_EACH = 8;
const FILES = FILES_EACH * MEMBERS.length;
const PARTICIPANTS = MEMBERS.reduce((n, m) => n + m.codes.length, 0);
const KILLS = 6;
const LEASE_SECONDS = 3;
const PASSWORD = (login: string) => `pw-${login}-long-enough-7`;
const root = mkdtempSync(join(tmpdir(), 'vs-workstations-'));
const homeOf = (m: Member) => join(root, m.login);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The member's own files and their manifest, on its own disk. */
const writeFiles = (dir: string, m: Member, seed: number): string => {
  const rows = ['file,participant,recorded_at'];
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < FILES_EACH; i++) {
    writeFileSync(join(dir, `r${i}.wav`), makeWav({ seconds: 44, speechSeconds: 36, seed: seed + i }));
    const day = String(1 + (i % 28)).padStart(2, '0');
    rows.push(`r${i}.wav,${m.codes[i % m.codes.length]},2026-01-${day}T10:00:00Z`);
  }
  writeFileSync(join(dir, 'manifest.csv'), rows.join('\n'));
  return join(dir, 'manifest.csv');
};

/** The team database's address for a login, with its password (the first time) or without. */
const addressOf = (cluster: PostgresCluster, login: string, withPassword: boolean) =>
  cluster
    .url(false)
    .replace(/^postgres:\/\/[^@]*@/, `postgres://${login}${withPassword ? `:${PASSWORD(login)}` : ''}@`);

interface Workstation {
  readonly m: Member;
  readonly home: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

describeWithTool('postgresql-15', 'three members at two sites on one team study', () => {
  it('import and run the same study at once through random SIGKILLs: no upload or account twice, no recording lost', async () => {
    const cluster = await startPostgresCluster();
    const sandbox = await startLabSandbox({
      scenario: {
        preset: 'fast',
        processingMs: { wellbeing: 1_000, parkinsons: 1_500 },
        latency: {
          upload: { fixedMs: 50, jitterMs: 300 },
          createAccount: { fixedMs: 20, jitterMs: 80 },
          getAnalysis: { fixedMs: 10, jitterMs: 40 },
        },
      },
    });
    cluster.superuser('ALTER ROLE voicescope CREATEROLE');
    const connected = await connectPostgres(cluster.address, cluster.password);
    if (!connected.ok) throw new Error(connected.error.message);
    const store: Store = connected.value; // the tables' owner: sees every site
    try {
      // The administrator makes the database a team database; the owner sets the study up.
      const admin = await openTeamAdmin(
        cluster.url(true),
        createKeyStore({ keysDir: mkdtempSync(join(root, 'admin-keys-')) }),
      );
      if (!admin.ok) throw new Error(admin.error.message);
      const team = admin.value;
      const must = (r: { ok: boolean; error?: { message: string } }) => {
        if (!r.ok) throw new Error(r.error?.message);
      };
      must(await team.init());
      must(await team.addMember({ login: 'owner_1', role: 'owner', password: PASSWORD('owner_1') }));
      const owner = await openChosenStudyService(
        { workspaceDir: homeOf(MEMBERS[0]) },
        addressOf(cluster, 'owner_1', true),
      );
      if (!owner.ok) throw new Error(owner.error);
      const { studyId, profileId } = await createSandboxStudy(owner.value.service, sandbox, 'Team');
      await owner.value.service.close();
      for (const site of ['a', 'b'])
        must(await team.addSite({ study: 'Team', code: site, name: `Clinic ${site}` }));
      for (const m of MEMBERS.slice(1))
        must(
          await team.addMember({
            login: m.login,
            role: m.role,
            password: PASSWORD(m.login),
            study: 'Team',
            sites: m.sites,
          }),
        );
      await team.close();

      // Each coordinator's workstation is told plainly it has no key, then is given it by the owner.
      for (const m of MEMBERS.slice(1)) {
        const opened = await openChosenStudyService(
          { workspaceDir: homeOf(m) },
          addressOf(cluster, m.login, true),
        );
        if (!opened.ok) throw new Error(opened.error);
        const svc = opened.value.service;
        expect(await svc.sendingProblem(studyId)).toMatchObject({
          message: 'This workstation has no key for the service profile sandbox.',
          action: expect.stringMatching(
            /^Ask the study's owner for it, then run voicescope profile key --profile "sandbox"/,
          ),
        });
        must(await svc.setProfileKey(profileId, DEMO_API_KEY));
        expect(await svc.sendingProblem(studyId)).toBeNull();
        await svc.close();
      }
      // The key is on the workstation, never in the database: the owner's reference is unchanged.
      const refs = await store.all<{ key_ref: string | null }>(`SELECT key_ref FROM service_profiles`);
      expect(refs.map((r) => r.key_ref)).toEqual([`key-file:${profileId}`]);

      const start = (m: Member, importing?: string): Workstation => {
        const home = homeOf(m);
        const args = [
          home,
          String(studyId),
          String(LEASE_SECONDS),
          ...(importing ? [importing, m.importSite] : []),
        ];
        const child = spawnTs(CHILD, args, [], {
          VOICESCOPE_DATABASE_URL: addressOf(cluster, m.login, false),
        });
        child.stdout!.on('data', (d: Buffer) => process.stderr.write(`[${m.login}] ${d.toString()}`));
        return { m, home, child, exited: new Promise((r) => child.once('exit', r)) };
      };
      // The three import their files and create their accounts at the same moment; then the kills.
      const stations = MEMBERS.map((m, i) =>
        start(m, writeFiles(join(root, `${m.login}-disk`), m, 500 + 100 * i)),
      );
      const imported = stations.map((s) => waitForLine(s.child, 'imported'));
      const ready = stations.map((s) => waitForLine(s.child, 'ready'));
      expect(await Promise.all(imported)).toEqual(MEMBERS.map(() => JSON.stringify({ pending: FILES_EACH })));
      await Promise.all(ready);
      const began = Date.now();
      const random = seededRandom(20261129);
      for (let k = 0; k < KILLS; k++) {
        const i = k % stations.length;
        const s = stations[i]!;
        await new Promise((r) => setTimeout(r, 200 + random() * 1_500));
        s.child.kill('SIGKILL'); // a no-op if it already finished and exited
        await s.exited;
        const again = start(s.m);
        stations[i] = again;
        await waitForLine(again.child, 'ready').catch(() => undefined); // it may finish at once
      }
      const killed = Date.now();
      await Promise.all(stations.map((s) => s.exited));
      // A workstation that stopped mid-upload left its claim; the others may have finished first, so
      // each starts once more after the lease to settle what it left (as a researcher's would).
      await new Promise((r) => setTimeout(r, LEASE_SECONDS * 1_000));
      const last = MEMBERS.map((m) => start(m));
      await Promise.all(last.map((s) => s.exited));
      const settled = Date.now();

      const count = async (sql: string) => Number((await store.get<{ n: number }>(sql))!.n);
      const states = Object.fromEntries(
        (
          await store.all<{ k: string; n: number }>(
            `SELECT upload_state AS k, count(*) AS n FROM recordings GROUP BY upload_state`,
          )
        ).map((r) => [r.k, Number(r.n)]),
      );
      const log = sandbox.requestLog();
      const uploads = log.filter((r) => r.endpoint === 'upload').length;
      const accountRequests = log.filter((r) => r.endpoint === 'createAccount').length;
      const claims = await store.all<{ claimed_by: string | null; code: string }>(
        `SELECT r.claimed_by, p.code FROM recordings r JOIN participants p ON p.id = r.participant_id`,
      );
      const sentBy = (login: string) =>
        claims.filter(
          (c) => c.claimed_by === workstationName(homeOf(MEMBERS.find((m) => m.login === login)!)),
        ).length;
      console.log(
        `${MEMBERS.length} members at 2 sites, ${KILLS} kills:`,
        JSON.stringify(states),
        `uploads sent ${uploads}, account requests ${accountRequests}, claims by member`,
        JSON.stringify(MEMBERS.map((m) => [m.login, sentBy(m.login)])),
        `kills over ${Math.round((killed - began) / 1000)} s, settled ${Math.round((settled - killed) / 1000)} s later`,
      );
      // Every member's files were imported at its site, each participant once.
      expect(
        await store.all(
          `SELECT site_code, count(*) AS n FROM participants GROUP BY site_code ORDER BY site_code`,
        ),
      ).toEqual([
        { site_code: 'a', n: 6 },
        { site_code: 'b', n: 3 },
      ]);
      // No recording lost: each uploaded, or uncertain with its reason (a decision for a person).
      expect(await count(`SELECT count(*) AS n FROM recordings`)).toBe(FILES);
      const uploaded = states['uploaded'] ?? 0;
      const uncertain = states['upload_uncertain'] ?? 0;
      expect(uploaded + uncertain).toBe(FILES);
      expect(uploaded).toBeGreaterThan(0);
      for (const r of await store.all<{ upload_error: string }>(
        `SELECT upload_error FROM recordings WHERE upload_state = 'upload_uncertain'`,
      ))
        expect(JSON.parse(r.upload_error).reason).toMatch(
          /stopped while (this upload was being sent|it was sending this upload)/,
        );
      // Nothing uploaded twice: one intent per recording at most, no copy twice on the service.
      expect(await count(`SELECT max(upload_attempts) AS n FROM recordings`)).toBe(1);
      const held = sandbox.listRecordings();
      expect(new Set(held.map((r) => r.audioSha256)).size).toBe(held.length);
      expect(uploads).toBeLessThanOrEqual(FILES);
      expect(held.length).toBeGreaterThanOrEqual(uploaded);
      expect(held.length).toBeLessThanOrEqual(uploaded + uncertain);
      // No account twice: one request per participant, however many workstations saw it at once.
      expect(accountRequests).toBe(PARTICIPANTS);
      expect(await count(`SELECT count(DISTINCT account_id) AS n FROM participants`)).toBe(PARTICIPANTS);
      // Each workstation sent only recordings of sites its member may reach: a coordinator's, its own
      // sites' (on this one computer every workstation holds every file, by its path and content).
      for (const c of claims) {
        if (c.claimed_by === null) continue;
        const site = MEMBERS.find((m) => (m.codes as readonly string[]).includes(c.code))!.importSite;
        const sender = MEMBERS.find((m) => workstationName(homeOf(m)) === c.claimed_by)!;
        if (sender.role === 'coordinator') expect(sender.sites as readonly string[], c.code).toContain(site);
      }
      for (const m of MEMBERS) expect(sentBy(m.login), m.login).toBeGreaterThan(0);
      // Every analysis of an uploaded recording completed, and every stored result is the service's.
      expect(await count(`SELECT count(*) AS n FROM analyses WHERE state = 'completed'`)).toBe(2 * uploaded);
      const client = keyedClient({
        profile: { baseUrl: sandbox.url, version: 'v1.3', apiKey: DEMO_API_KEY },
        now: Date.now,
      });
      const same = await resultsMatchService(store, client);
      expect(same.check.violations).toEqual([]);
      expect(same.compared).toBe(uploaded);
    } finally {
      await store.close();
      await sandbox.close();
      cluster.stop();
    }
  }, 600_000);
});
