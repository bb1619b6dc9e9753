/**
 * A study folder of 200+ recordings goes from disk to completed analyses through the study service
 * alone (the same code the app and the command line use), against the sandbox: local verdicts,
 * conversion, duplicates, manifest errors, account creation, the queue runner and the poller; checked
 * against the sandbox's own records and request log.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import type { Sandbox } from '../../../main/sandbox/server';
import { startLabSandbox } from '../../support/lab-sandbox';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import type { EngineEvent, ImportPlan } from '../../../shared/study';
import { makeStudyFolder, type StudyFolder } from '../../support/study-folder';

const POLL = {
  firstPollAfterMs: 5_000,
  intervalMs: 5_000,
  jitterMs: 0,
  globalRatePerSecond: 25,
  globalBurst: 10,
};
let root: string;
let sandbox: Sandbox;
let svc: StudyService;
let folder: StudyFolder;
let plan: ImportPlan;
let batchId: number;
const events: EngineEvent[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vs-study-'));
  folder = makeStudyFolder(root);
  sandbox = await startLabSandbox({ credits: 300, scenario: { preset: 'fast' } });
  svc = await openTestStudyService({
    workspaceDir: join(root, 'home'),
    poll: POLL,
    queue: { uploadConcurrency: 4, uploadsPerMinute: 6_000 },
    idleRecheckMs: 200,
    onEvent: (e) => events.push(e),
  });
  const profile = await svc.createProfile({
    name: 'sandbox',
    baseUrl: sandbox.url,
    apiVersion: 'v1.3',
    apiKey: DEMO_API_KEY,
    isSandbox: true,
  });
  if (!profile.ok) throw new Error(profile.error.message);
  const study = await svc.createStudy({ name: 'Weekly speech', profileId: profile.value.id });
  if (!study.ok) throw new Error(study.error.message);
  const planned = await svc.planImport({
    studyId: study.value.id,
    paths: [folder.dir],
    manifestPath: folder.manifestPath,
    timeZone: 'Europe/Berlin',
    analyses: ['wellbeing', 'parkinsons', 'alzheimers'],
    isolateOldestSpeaker: false,
    convert: true,
  });
  if (!planned.ok) throw new Error(planned.error.message);
  plan = planned.value;
}, 180_000);

afterAll(async () => {
  await svc?.close();
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a study folder of 200+ recordings', () => {
  it('is previewed without writing or sending anything: every file gets a verdict, a participant or the reason it has none', async () => {
    expect(plan.files.length).toBeGreaterThanOrEqual(200);
    expect(plan.counts).toEqual(folder.expected);
    expect(plan.manifestErrors).toHaveLength(folder.manifestErrorRows);
    expect(plan.manifestErrors.filter((e) => /does not exist/.test(e.message))).toHaveLength(3);
    expect(plan.newParticipants).toHaveLength(folder.participants);
    expect(sandbox.requestLog()).toHaveLength(0);
    expect(((await svc.store.get(`SELECT count(*) n FROM recordings`)) as { n: number }).n).toBe(0);
    for (const f of plan.files.filter((x) => x.action === 'refused'))
      expect(f.verdict.findings.some((x) => x.severity === 'refuse' && x.message && x.action)).toBe(true);
    const manifestTimes = plan.files.filter((f) => f.recordedAtSource === 'manifest');
    expect(manifestTimes.length).toBeGreaterThan(150);
    // "2026-02-01 08:00" in Europe/Berlin (UTC+1 in February).
    expect(plan.files.find((f) => f.fileName === 'rec-0000.wav')!.recordedAt).toBe(
      '2026-02-01T07:00:00.000Z',
    );
  });

  it('is committed, gets its accounts after confirmation, and every valid file is uploaded exactly once and analysed', async () => {
    const committed = await svc.commitImport(plan);
    batchId = committed.batchId;
    expect(committed.conversionFailures).toEqual([]);
    expect(committed.byState).toEqual({
      pending: folder.expected.upload + folder.expected.convert_and_upload,
      refused_locally: folder.expected.refused,
      duplicate: folder.expected.duplicate,
    });
    expect(sandbox.requestLog()).toHaveLength(0); // nothing is sent before the researcher confirms

    const accounts = await svc.createAccounts(plan.request.studyId);
    expect(accounts.ok && accounts.value.created).toHaveLength(folder.participants);
    const credits = await svc.checkBatchCredits(batchId);
    expect(credits.ok && credits.value.uploadsPlanned).toBe(
      folder.expected.upload + folder.expected.convert_and_upload,
    );
    const started = await svc.startBatch(batchId);
    expect(started.ok).toBe(true);
    await svc.runnerFor(1)!.whenIdle();

    const [progress] = await svc.batches(plan.request.studyId);
    const sent = folder.expected.upload + folder.expected.convert_and_upload;
    expect(progress!.state).toBe('finished');
    expect(progress!.uploads).toEqual({
      uploaded: sent,
      refused_locally: folder.expected.refused,
      duplicate: folder.expected.duplicate,
    });
    expect(progress!.analysesByState).toEqual({ completed: 3 * sent });

    const held = sandbox.listRecordings();
    expect(held).toHaveLength(sent);
    expect(new Set(held.map((r) => `${r.accountId}:${r.audioSha256}`)).size).toBe(sent);
    expect(sandbox.requestLog().filter((r) => r.endpoint === 'upload')).toHaveLength(sent);
    // Converted copies were sent: mono, 16 kHz; the originals are untouched.
    const converted = (await svc.store.all(
      `SELECT source_path, upload_path, content_sha256 FROM recordings WHERE converted = 1`,
    )) as { source_path: string; upload_path: string; content_sha256: string }[];
    expect(converted).toHaveLength(folder.expected.convert_and_upload);
    for (const c of converted) {
      expect(existsSync(c.upload_path)).toBe(true);
      expect(createHash('sha256').update(readFileSync(c.source_path)).digest('hex')).toBe(c.content_sha256);
    }
    expect(
      held.filter((r) => r.submitted.sampleRateHz === 16_000 && r.submitted.format === 'wav').length,
    ).toBeGreaterThanOrEqual(folder.expected.convert_and_upload);
    // Results are stored, marked simulated.
    expect(
      ((await svc.store.get(`SELECT count(DISTINCT recording_id) n FROM measure_values`)) as { n: number }).n,
    ).toBe(sent);
    expect(
      (
        (await svc.store.get(
          `SELECT count(*) n FROM recordings WHERE upload_state = 'uploaded' AND result_source = 'simulated'`,
        )) as { n: number }
      ).n,
    ).toBe(sent);
    // Usage was read before and after the batch.
    const b = (await svc.store.get(`SELECT usage_before, usage_after FROM batches WHERE id = ?`, [
      batchId,
    ])) as {
      usage_before: string;
      usage_after: string;
    };
    expect(JSON.parse(b.usage_before).uploadsRemaining - JSON.parse(b.usage_after).uploadsRemaining).toBe(
      sent,
    );
  }, 240_000);

  it('never polls a recording more often than every 5 s, nor the service beyond the global budget (sandbox request log)', () => {
    const polls = sandbox.requestLog().filter((r) => r.endpoint === 'getAnalysis');
    expect(polls.length).toBeGreaterThan(0);
    const byPath = new Map<string, number[]>();
    for (const p of polls) byPath.set(p.path, [...(byPath.get(p.path) ?? []), p.at]);
    for (const times of byPath.values())
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(4_990);
    const all = sandbox
      .requestLog()
      .filter((r) => r.endpoint === 'getAnalysis' || r.endpoint === 'upload' || r.endpoint === 'getUsage')
      .map((r) => r.at)
      .sort((a, b) => a - b);
    let worst = 0;
    for (let i = 0, j = 0; i < all.length; i++) {
      while (all[i]! - all[j]! >= 1_000) j++;
      worst = Math.max(worst, i - j + 1);
    }
    expect(worst).toBeLessThanOrEqual(POLL.globalBurst + POLL.globalRatePerSecond + 1);
  });

  it('reports progress as coalesced events, not one per change', () => {
    const progress = events.filter((e) => e.type === 'batch-progress');
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1)!;
    expect(last.type === 'batch-progress' && last.batches[0]!.analysesByState.completed).toBe(
      3 * (folder.expected.upload + folder.expected.convert_and_upload),
    );
    const changes = events
      .filter((e) => e.type === 'recordings-changed')
      .reduce((n, e) => n + (e.type === 'recordings-changed' ? e.recordingIds.length : 0), 0);
    expect(events.length).toBeLessThan(changes);
  });

  it('flags the whole folder as duplicates when it is imported again, and sends one only when the researcher insists', async () => {
    const again = await svc.planImport({ ...plan.request });
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    const validBefore =
      folder.expected.upload + folder.expected.convert_and_upload + folder.expected.duplicate;
    expect(again.value.counts.duplicate).toBe(validBefore);
    const one = again.value.files.find((f) => f.action === 'duplicate')!;
    const committed = await svc.commitImport(again.value, { insistOnDuplicates: [one.path] });
    expect(committed.byState.queued).toBe(1);
    await svc.startBatch(committed.batchId);
    await svc.runnerFor(1)!.whenIdle();
    expect(sandbox.requestLog().filter((r) => r.endpoint === 'upload')).toHaveLength(
      folder.expected.upload + folder.expected.convert_and_upload + 1,
    );
  }, 60_000);
});
