/**
 * The window's way into a team study, through the router as the window calls it, on a real PostgreSQL
 * 15 server: the refusals in a researcher's words (unreachable, wrong password, not a team database, a
 * password in the address) leave the window on its own study; a coordinator connected sees only their
 * site's participants and recordings, the work their role allows and the study's workstations; the
 * choice is remembered by the workspace (the next start opens the team study, the password from the key
 * store, never in the address); the owner sees both sites and filters by one; and back to the own study;
 * a coordinator's import from the window puts new participants at their site, never at one not theirs.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppHost } from '../../../main/app-host';
import type { CallResult, Input, Method, Output } from '../../../shared/contract';
import { makeWav } from '../../fixtures/audio';
import { openHost } from '../../support/open-host';
import { describeWithTool } from '../../support/reference-tools';
import {
  SITE_PARTICIPANTS,
  startTwoSiteTeam,
  teamPassword,
  type TwoSiteTeam,
} from '../../support/two-site-team';

describeWithTool('postgresql-15', 'the window on a team study', () => {
  let team: TwoSiteTeam;
  const root = mkdtempSync(join(tmpdir(), 'vs-team-window-'));
  const hosts: AppHost[] = [];
  const open = async (home: string) => {
    const host = await openHost({
      workspaceDir: join(root, home),
      mode: 'browser',
      keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'test' },
      sandboxScenario: 'fast',
      log: { error: (m, d) => console.error(m, d) },
    });
    hosts.push(host);
    return host;
  };
  const caller = (host: AppHost) => ({
    call: async <M extends Method>(method: M, input: Input<M>) =>
      (await host.router.handle(method, input, { via: 'direct' })) as CallResult<M>,
    must: async <M extends Method>(method: M, input: Input<M>): Promise<Output<M>> => {
      const r = (await host.router.handle(method, input, { via: 'direct' })) as CallResult<M>;
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
  });
  const codes = async (host: AppHost, studyId: number, site?: string) =>
    (
      await caller(host).must('participants.page', {
        studyId,
        sort: 'code',
        dir: 'asc',
        offset: 0,
        limit: 50,
        ...(site ? { site } : {}),
      })
    ).rows.map((r) => r.code);

  beforeAll(async () => {
    team = await startTwoSiteTeam();
  }, 300_000);
  afterAll(async () => {
    for (const h of hosts) await h.close().catch(() => undefined);
    await team?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses in a researcher’s words and stays on the own study', async () => {
    const host = await open('refusals');
    const { call, must } = caller(host);
    const use = (address: string, login: string, password: string) =>
      call('team.useDatabase', { address, login, password });
    const wrong = await use(team.address, 'coord_a', 'not-the-password');
    expect(!wrong.ok && wrong.error.message).toMatch(/refused the login coord_a \(wrong password/);
    const closed = await use(team.address.replace(/:\d+\//, ':1/'), 'coord_a', teamPassword('coord_a'));
    expect(!closed.ok && closed.error.message).toMatch(/cannot reach the database server/);
    const withPassword = await use(
      team.address.replace('postgres://', 'postgres://coord_a:secret@'),
      'coord_a',
      teamPassword('coord_a'),
    );
    expect(!withPassword.ok && withPassword.error.message).toMatch(/Leave the password out of the address/);
    team.cluster.superuser('CREATE DATABASE plain OWNER voicescope');
    const plain = await use(team.address.replace('/study?', '/plain?'), 'voicescope', team.cluster.password);
    expect(!plain.ok && plain.error.message).toMatch(/is not a team study/);
    const admin = await use(team.address, 'voicescope', team.cluster.password);
    expect(!admin.ok && admin.error.message).toMatch(/owns this team study's tables/);
    expect(await must('team.session', {})).toMatchObject({ database: 'local', address: null, role: null });
    // No refused password was kept.
    expect(readdirSync(join(root, 'refusals', 'keys')).filter((f) => f.startsWith('database-'))).toEqual([]);
  });

  it('shows a coordinator their site only, what their role allows, and the workstations; remembered at the next start', async () => {
    const host = await open('coord-a');
    const { must } = caller(host);
    const session = await must('team.useDatabase', {
      address: team.address,
      login: 'coord_a',
      password: teamPassword('coord_a'),
    });
    expect(session).toMatchObject({ database: 'team', login: 'coord_a', role: 'coordinator' });
    expect(session.allowed).toEqual(['import', 'curate', 'createAccounts']);
    expect(session.address).not.toContain(teamPassword('coord_a'));
    const [study] = await must('studies.list', {});
    expect(study?.name).toBe('Two clinics');
    const studyId = study!.id;
    expect(await codes(host, studyId)).toEqual(SITE_PARTICIPANTS.a);
    expect((await must('team.sites', { studyId })).sites.map((s) => s.code)).toEqual(['a']);
    const recordings = await must('recordings.page', {
      studyId,
      sort: 'recorded_at',
      dir: 'asc',
      offset: 0,
      limit: 50,
    });
    expect(recordings.rows.map((r) => r.participantCode)).toEqual(['A-01', 'A-02']);
    const ws = await must('team.workstations', { studyId });
    expect(ws.rows.find((w) => w.name === 'clinic-a-pc')).toMatchObject({
      login: 'coord_a',
      here: true,
      waiting: 1,
      sending: 1,
    });
    // Clinic B's recordings are not the coordinator's to see: its workstation holds none of theirs.
    expect(ws.rows.find((w) => w.name === 'clinic-b-pc')).toMatchObject({ here: false, waiting: 0 });

    await host.close();
    hosts.pop();
    const workspace = join(root, 'coord-a');
    expect(readFileSync(join(workspace, 'database'), 'utf8')).not.toContain(teamPassword('coord_a'));
    const again = await open('coord-a');
    expect(await caller(again).must('team.session', {})).toMatchObject({
      database: 'team',
      login: 'coord_a',
      problem: null,
    });
    expect(await codes(again, studyId)).toEqual(SITE_PARTICIPANTS.a);
  });

  it('opens the own study, saying why, when the team study chosen earlier cannot be opened at start', async () => {
    mkdirSync(join(root, 'gone'), { recursive: true });
    writeFileSync(
      join(root, 'gone', 'database'),
      `${team.address.replace('postgres://', 'postgres://nobody@')}\n`,
    );
    const host = await open('gone');
    const session = await caller(host).must('team.session', {});
    expect(session).toMatchObject({ database: 'local', address: null, role: null });
    expect(session.problem).toMatch(
      /^The team study chosen earlier \(postgres:\/\/nobody@.*could not be opened.*No password is stored for nobody/,
    );
  });

  it('shows the owner both sites, filtered by one on request, and goes back to the own study', async () => {
    const host = await open('owner');
    const { must } = caller(host);
    await must('team.useDatabase', {
      address: team.address,
      login: 'owner_1',
      password: teamPassword('owner_1'),
    });
    const studyId = team.studyId;
    expect(await codes(host, studyId)).toEqual([...SITE_PARTICIPANTS.a, ...SITE_PARTICIPANTS.b]);
    expect(await codes(host, studyId, 'b')).toEqual(SITE_PARTICIPANTS.b);
    expect((await must('team.sites', { studyId })).sites.map((s) => s.code)).toEqual(['a', 'b', 'main']);
    expect(
      (await must('team.workstations', { studyId })).rows.find((w) => w.name === 'clinic-b-pc'),
    ).toMatchObject({ login: 'coord_b', here: false, waiting: 3, sending: 0 });
    expect(await must('team.useLocalStudy', {})).toMatchObject({ database: 'local', address: null });
    expect(await must('studies.list', {})).toEqual([]);
  });
  it("puts a coordinator's window import at their site, and refuses a site not granted to them", async () => {
    const host = await open('coord-b-import');
    const { call, must } = caller(host);
    await must('team.useDatabase', {
      address: team.address,
      login: 'coord_b',
      password: teamPassword('coord_b'),
    });
    const studyId = team.studyId;
    const dir = join(root, 'week-b');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'B-09_w1.wav'), makeWav({ seconds: 42, speechSeconds: 36, seed: 91 }));
    const preview = await must('imports.preview', {
      studyId,
      paths: [dir],
      filenamePattern: '{participant}_{session}.wav',
      timeZone: 'UTC',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: false,
    });
    expect(preview.newParticipants).toEqual(['B-09']);
    // The confirm step offers the member's sites: Clinic B alone, preselected.
    expect((await must('team.sites', { studyId })).sites).toEqual([{ code: 'b', name: 'Clinic B' }]);
    const commit = (site: string) =>
      call('imports.commit', { planId: preview.planId, insistOnDuplicates: [], label: 'Week 9', site });
    const refused = await commit('a');
    expect(!refused.ok && refused.error).toMatchObject({
      code: 'REFUSED',
      message: 'Site a is not one of your sites in this study (b).',
      action:
        "Choose one of them under “Site of new participants”, or ask the study's owner to grant you site a.",
    });
    expect((await commit('b')).ok).toBe(true);
    const rows = (
      await must('participants.page', { studyId, sort: 'code', dir: 'asc', offset: 0, limit: 50 })
    ).rows;
    expect(rows.map((r) => [r.code, r.site])).toEqual([
      ...SITE_PARTICIPANTS.b.map((c) => [c, 'b']),
      ['B-09', 'b'],
    ]);
    expect((await must('participants.get', { participantId: rows.at(-1)!.id })).site).toBe('b');
  }, 300_000);
});
