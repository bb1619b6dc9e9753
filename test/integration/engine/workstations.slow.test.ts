/**
 * Three workstations on one team study (a PostgreSQL 15 server), each a process with its own workspace,
 * the files on a drive they share: one researcher imported them at a fourth workstation that is then
 * away. The three create the participants' accounts at the same moment, then work the queue while each
 * is SIGKILLed at random moments and started again. Nothing is uploaded twice, no account is created
 * twice, no recording is lost: each ends uploaded, or uncertain with the reason naming who stopped.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { connectPostgres } from '../../../main/db/store/connect';
import type { Store } from '../../../main/db/store/types';
import { openChosenStudyService } from '../../../main/services/open-study-service';
import { workstationName } from '../../../main/workspace/workstation-name';
import { createSandboxStudy, startLabSandbox } from '../../support/lab-sandbox';
import { makeWav, seededRandom } from '../../fixtures/audio';
import { startPostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';
import { spawnTs, waitForLine } from '../../support/spawn';

const CHILD = join(import.meta.dirname, '../../support/workstation-child.ts');
const FILES = 36;
const PARTICIPANTS = 9;
const WORKSTATIONS = 3;
const KILLS = 6;
const LEASE_SECONDS = 3;
const root = mkdtempSync(join(tmpdir(), 'vs-workstations-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const writeFiles = (dir: string): string => {
  const rows = ['file,participant,recorded_at'];
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(dir, `r${i}.wav`), makeWav({ seconds: 44, speechSeconds: 36, seed: 500 + i }));
    rows.push(`r${i}.wav,P-${i % PARTICIPANTS},2026-01-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`);
  }
  writeFileSync(join(dir, 'manifest.csv'), rows.join('\n'));
  return join(dir, 'manifest.csv');
};

interface Workstation {
  readonly home: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

describeWithTool('postgresql-15', 'three workstations on one study', () => {
  it('claim each upload once through random SIGKILLs: no upload or account twice, no recording lost', async () => {
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
    const connected = await connectPostgres(cluster.address, cluster.password);
    if (!connected.ok) throw new Error(connected.error.message);
    const store: Store = connected.value;
    try {
      // The researcher's workstation: import, start; its files are on a drive the others share.
      const researcher = join(root, 'researcher');
      const manifestPath = writeFiles(join(root, 'shared-drive'));
      const opened = await openChosenStudyService({ workspaceDir: researcher }, cluster.url(true));
      if (!opened.ok) throw new Error(opened.error);
      const svc = opened.value.service;
      const { studyId, profileId } = await createSandboxStudy(svc, sandbox, 'Team');
      const plan = await svc.planImport({
        studyId,
        paths: [],
        manifestPath,
        timeZone: 'UTC',
        analyses: ['wellbeing', 'parkinsons'],
        isolateOldestSpeaker: false,
        convert: false,
      });
      if (!plan.ok) throw new Error(plan.error.message);
      const { batchId } = await svc.commitImport(plan.value);
      await svc.pauseSending(profileId); // nothing is sent from the researcher's workstation…
      await svc.startBatch(batchId);
      await svc.close();
      await store.run(`DELETE FROM settings WHERE key LIKE 'queue_pause:%'`);
      // …which then goes away: its files wait for it until another workstation finds them.
      await store.run(`UPDATE workstations SET last_seen_at = '2026-01-01T00:00:00.000Z'`);
      const reopened = await openChosenStudyService({ workspaceDir: researcher }, cluster.url(false));
      if (!reopened.ok) throw new Error(reopened.error);
      expect(await reopened.value.service.waitingForWorkstations(studyId)).toEqual([
        expect.objectContaining({ workstation: workstationName(researcher), waiting: FILES }),
      ]);
      await reopened.value.service.close();

      const env = { VOICESCOPE_DATABASE_URL: cluster.url(false) };
      const start = (home: string): Workstation => {
        const child = spawnTs(CHILD, [home, String(studyId), String(LEASE_SECONDS)], [], env);
        return { home, child, exited: new Promise((r) => child.once('exit', r)) };
      };
      const stations: Workstation[] = [];
      for (let i = 0; i < WORKSTATIONS; i++) {
        const home = join(root, `workstation-${i}`);
        mkdirSync(home, { recursive: true });
        cpSync(join(researcher, 'keys'), join(home, 'keys'), { recursive: true }); // given the keys once
        stations.push(start(home));
      }
      // The three create the accounts at the same moment; then the kills.
      await Promise.all(stations.map((s) => waitForLine(s.child, 'ready')));
      const began = Date.now();
      const random = seededRandom(20261129);
      for (let k = 0; k < KILLS; k++) {
        const s = stations[k % WORKSTATIONS]!;
        await new Promise((r) => setTimeout(r, 200 + random() * 1_500));
        s.child.kill('SIGKILL'); // a no-op if it already finished and exited
        await s.exited;
        const again = start(s.home);
        stations[k % WORKSTATIONS] = again;
        await waitForLine(again.child, 'ready').catch(() => undefined); // it may finish at once
      }
      const killed = Date.now();
      await Promise.all(stations.map((s) => s.exited));
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
      const reasons = await store.all<{ another: number; n: number }>(
        `SELECT ${store.dialect.flag(`upload_error LIKE '%The workstation %'`)} AS another, count(*) AS n
         FROM recordings WHERE upload_state = 'upload_uncertain' GROUP BY 1 ORDER BY 1`,
      );
      const senders = await store.all<{ claimed_by: string; n: number }>(
        `SELECT claimed_by, count(*) AS n FROM recordings GROUP BY claimed_by ORDER BY claimed_by`,
      );
      console.log(
        `${WORKSTATIONS} workstations, ${KILLS} kills:`,
        JSON.stringify(states),
        `uploads sent ${uploads}, account requests ${accountRequests}, claims by workstation`,
        JSON.stringify(senders.map((s) => [s.claimed_by, Number(s.n)])),
        `uncertain found by another workstation ${Number(reasons.find((r) => Number(r.another) === 1)?.n ?? 0)}`,
        `kills over ${Math.round((killed - began) / 1000)} s, settled ${Math.round((settled - killed) / 1000)} s later`,
      );
      // No recording lost: each uploaded, or uncertain with its reason.
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
      // No account twice: one request per participant, however many workstations asked at once.
      expect(accountRequests).toBe(PARTICIPANTS);
      expect(await count(`SELECT count(DISTINCT account_id) AS n FROM participants`)).toBe(PARTICIPANTS);
      // The work was shared: more than one workstation sent files.
      expect(senders.filter((s) => s.claimed_by !== null).length).toBeGreaterThan(1);
      expect(await count(`SELECT count(*) AS n FROM analyses WHERE state = 'completed'`)).toBe(2 * uploaded);
    } finally {
      await store.close();
      await sandbox.close();
      cluster.stop();
    }
  }, 240_000);
});
