/**
 * Three workstations on one study database (a throwaway PostgreSQL 15 server), each an engine process
 * of its own, polling the same study against the sandbox. Read from the sandbox's request log: the
 * service never sees more requests than the study's one budget allows (burst plus rate x window, over
 * windows of 1, 3 and 10 s), summed over the three, and no recording is polled twice within 5 s. The
 * recordings are uploaded first by the researcher's own process (uploads from several workstations at
 * once are the claims' work, not this test's), then the three engines poll them until every analysis
 * is complete. While the analyses are processing the demand (30 recordings every 5 s: 6 requests/s)
 * is twice the budget (3/s): with a budget kept in each process, three workstations sent 60 requests
 * in 10 s (the bound is 33) and this test failed.
 */
import type { ChildProcess } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LoggedRequest, Sandbox } from '../../../main/sandbox/server';
import { connectPostgres } from '../../../main/db/store/connect';
import { strandedAnalyses } from '../../../main/db/repos/polls.repo';
import type { Store } from '../../../main/db/store/types';
import { DATABASE_URL_VARIABLE, openChosenStudyService } from '../../../main/services/open-study-service';
import { makeWav } from '../../fixtures/audio';
import { createSandboxStudy, startLabSandbox } from '../../support/lab-sandbox';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';
import { spawnTs, waitForLine } from '../../support/spawn';

const WORKSTATIONS = 3;
const RECORDINGS = 30;
const RATE = 3;
const BURST = 3;
const FLOOR_MS = 5_000;
const TUNING = {
  poll: {
    firstPollAfterMs: 5_000,
    intervalMs: 5_000,
    jitterMs: 0,
    globalRatePerSecond: RATE,
    globalBurst: BURST,
  },
  queue: { uploadConcurrency: 3, uploadsPerMinute: 6_000 },
};
const ENGINE = join(import.meta.dirname, '../../soak/engine-process.ts');

/** The most requests that arrived within any window of `ms` starting at a request. */
const busiestWindow = (log: readonly LoggedRequest[], ms: number): number => {
  const at = log.map((e) => e.at).toSorted((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while (j < at.length && at[j]! < at[i]! + ms) j++;
    most = Math.max(most, j - i);
  }
  return most;
};

/** The shortest time between two polls of one recording. */
const closestPolls = (log: readonly LoggedRequest[]): number => {
  const byRecording = new Map<string, number[]>();
  for (const e of log.filter((x) => x.endpoint === 'getAnalysis'))
    byRecording.set(e.path, [...(byRecording.get(e.path) ?? []), e.at]);
  const gaps = [...byRecording.values()].flatMap((polls) => {
    const at = polls.toSorted((a, b) => a - b);
    return at.slice(1).map((t, k) => t - at[k]!);
  });
  return Math.min(...gaps);
};

describeWithTool('postgresql-15', 'three workstations polling one study database', () => {
  let cluster: PostgresCluster;
  let sandbox: Sandbox;
  let reader: Store;
  const work = mkdtempSync(join(tmpdir(), 'vs-shared-polls-'));
  const home = join(work, 'home');
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    sandbox = await startLabSandbox({
      credits: 2 * RECORDINGS,
      scenario: {
        processingMs: {
          wellbeing: 45_000,
          parkinsons: 45_000,
          alzheimers: 45_000,
          communication_coach: 45_000,
        },
      },
    });
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await reader?.close();
    await sandbox?.close();
    cluster?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /**
   * The study: one recording for each of RECORDINGS participants (the same audio, sent for each on
   * purpose), uploaded by the researcher's own process, which then closes.
   */
  const uploadStudy = async () => {
    const files = join(work, 'files');
    mkdirSync(join(files, 'audio'), { recursive: true });
    const rows = ['file,participant,recorded_at'];
    writeFileSync(
      join(files, 'audio', 'a.wav'),
      makeWav({ seconds: 36, speechSeconds: 33, sampleRateHz: 8_000, seed: 31 }),
    );
    for (let p = 0; p < RECORDINGS; p++) {
      linkSync(join(files, 'audio', 'a.wav'), join(files, `P${p}.wav`));
      rows.push(`P${p}.wav,P-${p},2026-01-01T10:00:00Z`);
    }
    writeFileSync(join(files, 'manifest.csv'), rows.join('\n'));
    const opened = await openChosenStudyService(
      { workspaceDir: home, idleRecheckMs: 100, ...TUNING },
      cluster.url(true),
    );
    if (!opened.ok) throw new Error(opened.error);
    const svc = opened.value.service;
    const { studyId, profileId } = await createSandboxStudy(svc, sandbox, 'Shared polls');
    const plan = await svc.planImport({
      studyId,
      paths: [],
      manifestPath: join(files, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing', 'parkinsons'],
      isolateOldestSpeaker: false,
      convert: false,
    });
    if (!plan.ok) throw new Error(plan.error.message);
    const insisted = plan.value.files.filter((f) => f.action === 'duplicate').map((f) => f.path);
    const { batchId } = await svc.commitImport(plan.value, { insistOnDuplicates: insisted });
    const accounts = await svc.createAccounts(studyId);
    if (!accounts.ok) throw new Error(accounts.error.message);
    await svc.startBatch(batchId);
    await svc.startEngine();
    const connected = await connectPostgres(cluster.address, cluster.password);
    if (!connected.ok) throw new Error(connected.error.message);
    reader = connected.value;
    const unsent = async () =>
      Number(
        (await reader.get<{ n: number }>(
          `SELECT count(*) AS n FROM recordings WHERE upload_state <> 'uploaded'`,
        ))!.n,
      );
    while ((await unsent()) > 0) await new Promise((r) => setTimeout(r, 200));
    await svc.close();
    return profileId;
  };

  it('the service sees no more than the one budget, and no recording is polled twice within 5 s', async () => {
    const profileId = await uploadStudy();
    const from = Date.now();
    const env = { [DATABASE_URL_VARIABLE]: cluster.url(false) };
    for (let n = 0; n < WORKSTATIONS; n++)
      children.push(spawnTs(ENGINE, [home, JSON.stringify({ profileId, ...TUNING })], [], env));
    await Promise.all(children.map((c) => waitForLine(c, 'idle')));

    const log = sandbox.requestLog().filter((e) => e.at >= from);
    const polls = log.filter((e) => e.endpoint === 'getAnalysis');
    const busiest = [1_000, 3_000, 10_000].map((ms) => ({ ms, most: busiestWindow(log, ms) }));
    console.log(
      `shared polls: ${log.length} requests (${polls.length} polls) in ${((log.at(-1)!.at - from) / 1000).toFixed(1)} s; ` +
        `busiest windows ${busiest.map((b) => `${b.ms / 1000} s: ${b.most}`).join(', ')}; closest polls of one recording ${closestPolls(log)} ms`,
    );
    expect(new Set(polls.map((e) => e.path)).size).toBe(RECORDINGS);
    // The budget was what held them back: some 10 s were spent close to it.
    expect(busiest.at(-1)!.most).toBeGreaterThanOrEqual(RATE * 10 * 0.8);
    for (const { ms, most } of busiest)
      expect(most, `${ms} ms`).toBeLessThanOrEqual(BURST + (RATE * ms) / 1000);
    expect(closestPolls(log)).toBeGreaterThanOrEqual(FLOOR_MS);
    expect(await strandedAnalyses(reader)).toEqual([]);
    const done = await reader.get<{ n: number }>(
      `SELECT count(*) AS n FROM analyses WHERE state = 'completed'`,
    );
    expect(Number(done!.n)).toBe(2 * RECORDINGS);
  }, 150_000);
});
