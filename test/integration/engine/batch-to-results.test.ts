/**
 * A batch goes from files on disk to stored results through the main-process pieces alone: local
 * verdict, write-ahead upload, polling within the budget, results in the database; checked against
 * the sandbox's own request log.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../main/api/client';
import { probeAudio } from '../../../main/audio/probe';
import { runPollStep } from '../../../main/engine/poll-step';
import { runUploadStep } from '../../../main/engine/upload-step';
import { judgeAudio, verdictFromProblem } from '../../../main/import/local-verdict';
import { clampPollSettings, createTokenBucket, inProcessBudget } from '../../../main/jobs/poll-schedule';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import type { ScenarioPatch } from '../../../main/sandbox/scenario';
import { makeWav } from '../../fixtures/audio';
import type { Store } from '../../../main/db/store/types';
import { storePerTest } from '../../support/test-engine';

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
let clock = T0;
let dir: string;
let sandbox: Sandbox;
const stores = storePerTest();
let store: Store;
let client: ApiClient;
const now = () => clock;
const settings = clampPollSettings({});

const setUp = async (scenario: ScenarioPatch) => {
  clock = T0;
  dir = mkdtempSync(join(tmpdir(), 'vs-engine-'));
  sandbox = await startSandbox({
    port: 0,
    now,
    config: {
      organisations: [
        {
          id: 'demo',
          name: 'Demo',
          apiKeys: [DEMO_API_KEY],
          credits: {
            trial_remaining: 0,
            trial_granted: 0,
            included_remaining: 500,
            included_granted: 500,
            purchased_remaining: 0,
          },
        },
      ],
      scenario,
    },
  });
  client = createApiClient({
    profile: { baseUrl: sandbox.url, version: 'v1.3', apiKey: DEMO_API_KEY },
    sleep: async () => {},
    random: () => 0.5,
    now,
  });
  store = await stores.open();
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, is_sandbox, created_at) VALUES (1, 'sandbox', ?, 'v1.3', 1, 'now')`,
    [sandbox.url],
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Study', 1, 'now')`);
  await store.run(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'now', '["wellbeing","parkinsons","alzheimers"]', 'running')`,
  );
};

afterEach(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Four participants with accounts; files: 12 good, 2 with too little speech, 2 stereo (conversion is off). */
const importBatch = async () => {
  for (let p = 1; p <= 4; p++) {
    const acc = await client.createAccount();
    if (!acc.ok) throw new Error(acc.error.kind);
    await store.run(
      `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, 'now')`,
      [p, `P-00${p}`, acc.value.account.accountId],
    );
  }
  const files = [
    ...Array.from({ length: 12 }, (_, i) => ({
      name: `good-${i}.wav`,
      bytes: makeWav({ seconds: 45, speechSeconds: 36, seed: 100 + i }),
    })),
    ...[0, 1].map((i) => ({
      name: `short-${i}.wav`,
      bytes: makeWav({ seconds: 40, speechSeconds: 18, seed: 200 + i }),
    })),
    ...[0, 1].map((i) => ({
      name: `stereo-${i}.wav`,
      bytes: makeWav({ seconds: 40, speechSeconds: 34, channels: 2, seed: 300 + i }),
    })),
  ];
  for (const [i, f] of files.entries()) {
    const path = join(dir, f.name);
    writeFileSync(path, f.bytes);
    const probe = await probeAudio(f.bytes);
    const verdict = probe.ok
      ? judgeAudio(probe.value, { isolateOldestSpeaker: false, conversion: false })
      : verdictFromProblem(probe.error);
    const ok = verdict.status === 'accepted' || verdict.status === 'accepted_with_warnings';
    await store.run(
      `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, upload_error, created_at)
       VALUES (1, ?, 1, ?, ?, ?, ?, 'manifest', ?, ?, 'now')`,
      [
        (i % 4) + 1,
        path,
        createHash('sha256').update(f.bytes).digest('hex'),
        f.bytes.byteLength,
        new Date(T0 - (i + 1) * 7 * 86_400_000).toISOString(),
        ok ? 'queued' : 'refused_locally',
        ok ? null : JSON.stringify(verdict),
      ],
    );
  }
};

const drive = async () => {
  const bucket = inProcessBudget(createTokenBucket(settings.globalRatePerSecond, settings.globalBurst, now));
  for (let step = 0; step < 400; step++) {
    await runUploadStep(store, client, {
      profileId: 1,
      concurrency: 4,
      now,
      firstPollAfterMs: settings.firstPollAfterMs,
    });
    await runPollStep(store, client, {
      profileId: 1,
      now,
      settings,
      bucket,
      random: () => 0.5,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const pending = await store.get<{ n: number }>(
      `SELECT (SELECT count(*) FROM recordings WHERE upload_state = 'queued') + (SELECT count(*) FROM analyses WHERE state = 'processing') AS n`,
    );
    if (Number(pending!.n) === 0) return step;
    clock += 1_000;
  }
  throw new Error('batch did not finish');
};

const countBy = async (sql: string) =>
  Object.fromEntries((await store.all<{ k: string; n: number }>(sql)).map((r) => [r.k, r.n]));

describe('a batch from disk to results', () => {
  beforeEach(async () => {
    await setUp({ preset: 'fast' });
  });

  it('every good file is uploaded once and every analysis completes; refused files are never sent', async () => {
    await importBatch();
    await drive();
    expect(await countBy(`SELECT upload_state k, count(*) n FROM recordings GROUP BY 1`)).toEqual({
      uploaded: 12,
      refused_locally: 4,
    });
    expect(await countBy(`SELECT state k, count(*) n FROM analyses GROUP BY 1`)).toEqual({ completed: 36 });
    const uploads = sandbox.requestLog().filter((r) => r.endpoint === 'upload');
    expect(uploads).toHaveLength(12);
    expect(sandbox.listRecordings()).toHaveLength(12);
    const perRecording = await store.all<{ n: number }>(
      `SELECT r.id, count(m.measure_key) n FROM recordings r JOIN measure_values m ON m.recording_id = r.id GROUP BY r.id`,
    );
    expect(perRecording).toHaveLength(12);
    for (const r of perRecording) expect(r.n).toBeGreaterThan(20);
    expect(await store.get(`SELECT count(*) n FROM recordings WHERE result_source = 'simulated'`)).toEqual({
      n: 12,
    });
  });

  it("polls of one recording are never closer than 5 s (checked in the sandbox's request log)", async () => {
    await importBatch();
    await drive();
    const polls = sandbox.requestLog().filter((r) => r.endpoint === 'getAnalysis');
    expect(polls.length).toBeGreaterThan(0);
    const byPath = new Map<string, number[]>();
    for (const p of polls) byPath.set(p.path, [...(byPath.get(p.path) ?? []), p.at]);
    for (const times of byPath.values())
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(5_000);
  });
});

describe('a batch under faults', () => {
  beforeEach(async () => {
    await setUp({
      preset: 'fast',
      seed: 7,
      faults: { upload: { dropAfterProcessing: 0.3, http500: 0.15 }, getAnalysis: { http500: 0.3 } },
    });
  });

  it('lost answers become uncertain, nothing is sent twice, and every charged upload is accounted for', async () => {
    await importBatch();
    await drive();
    const states = await countBy(`SELECT upload_state k, count(*) n FROM recordings GROUP BY 1`);
    expect(states['refused_locally']).toBe(4);
    expect((states['uploaded'] ?? 0) + (states['upload_uncertain'] ?? 0)).toBe(12);
    expect(states['upload_uncertain']).toBeGreaterThan(0);
    // Each recording was sent once: no blind retry of an ambiguous upload.
    expect(sandbox.requestLog().filter((r) => r.endpoint === 'upload')).toHaveLength(12);
    // What the service holds is exactly what we know we uploaded plus the uncertain ones it did accept.
    const dropped = sandbox.requestLog().filter((r) => r.fault === 'dropped_after_processing').length;
    expect(sandbox.listRecordings()).toHaveLength((states['uploaded'] ?? 0) + dropped);
    expect(await countBy(`SELECT state k, count(*) n FROM analyses GROUP BY 1`)).toEqual({
      completed: 3 * (states['uploaded'] ?? 0),
    });
  });
});
