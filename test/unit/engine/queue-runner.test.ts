/**
 * The queue runner's timing, with fake timers and an in-memory client: a thousand recordings waiting
 * for results never push the service past the global request budget or a recording past the 5 s
 * floor; a rate limit pauses sending for the time the service asked and then resumes by itself; an
 * organisation-wide refusal pauses until the researcher resumes, and that pause survives a restart.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStudyDb, type Db } from '../../../main/db/open';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import type { Store } from '../../../main/db/store/types';
import { createQueueRunner } from '../../../main/engine/queue-runner';
import { DEFAULT_POLL } from '../../../main/jobs/poll-schedule';
import { createFakeClient, rateLimited, unauthorized } from '../../support/fake-client';

const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);
let db: Db;
let store: Store;

/** Files come from memory: a real disk read would finish in real time, outside the fake clock (flaky under load). */
const openAudio = async () => ({
  sizeBytes: 4,
  async *open() {
    yield new Uint8Array([82, 73, 70, 70]);
  },
});

const seed = (opts: { processing: number; queued: number }) => {
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://fake.invalid', 'v1.3', 'x')`,
  ).run();
  db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`).run();
  db.prepare(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P1', 'acc-1', 'x')`,
  ).run();
  db.prepare(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'x', '["wellbeing","parkinsons"]', 'running')`,
  ).run();
  const rec =
    db.prepare(`INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, uploaded_at, created_at)
                          VALUES (1, 1, 1, ?, ?, 1, '2026-01-01T00:00:00Z', 'manifest', ?, ?, ?, 'x')`);
  const an = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', 'x', ?)`,
  );
  const uploadedAt = new Date(T0).toISOString();
  db.transaction(() => {
    for (let i = 0; i < opts.processing; i++) {
      const id = Number(
        rec.run(
          `/f/${i}.wav`,
          `h${i}`,
          'uploaded',
          `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          uploadedAt,
        ).lastInsertRowid,
      );
      for (const t of ['wellbeing', 'parkinsons']) an.run(id, t, uploadedAt); // all due at once: the worst case
    }
    for (let i = 0; i < opts.queued; i++) rec.run(__filename, `q${i}`, 'queued', null, null);
  })();
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(T0);
  db = openStudyDb(':memory:').db;
  store = sqliteStore(db);
});
afterEach(() => {
  vi.useRealTimers();
  db.close();
});

describe('the polling lane', () => {
  it('keeps 1,000 waiting recordings within the global budget and every recording at least 5 s apart', async () => {
    seed({ processing: 1_000, queued: 0 });
    const client = createFakeClient(Date.now);
    const runner = createQueueRunner({ store, client, profileId: 1, random: () => 0.5 });
    await runner.start();
    const minutes = 10;
    await vi.advanceTimersByTimeAsync(minutes * 60_000);
    await runner.stop();
    const polls = client.calls.filter((c) => c.endpoint === 'getAnalysis');
    const { globalRatePerSecond: rate, globalBurst: burst } = DEFAULT_POLL;
    // Busy all along (there is always more to ask than the budget allows), never beyond it.
    expect(polls.length).toBeGreaterThan(0.95 * rate * minutes * 60);
    expect(polls.length).toBeLessThanOrEqual(burst + rate * minutes * 60);
    for (let i = 0, j = 0; i < polls.length; i++) {
      while (polls[i]!.at - polls[j]!.at >= 1_000) j++;
      expect(i - j + 1).toBeLessThanOrEqual(burst + rate);
    }
    const last = new Map<string, number>();
    for (const p of polls) {
      const prev = last.get(p.id!);
      if (prev !== undefined) expect(p.at - prev).toBeGreaterThanOrEqual(5_000);
      last.set(p.id!, p.at);
    }
    // One request per recording asks for all its pending types.
    expect(new Set(polls.map((p) => p.id)).size).toBe(Math.min(1_000, polls.length));
  });

  it("asks again at the researcher's interval until results arrive, then stops asking", async () => {
    seed({ processing: 3, queued: 0 });
    const client = createFakeClient(Date.now);
    client.completeAfterMs = 40_000;
    const runner = createQueueRunner({
      store,
      client,
      profileId: 1,
      random: () => 0.5,
      poll: { intervalMs: 10_000, jitterMs: 0 },
    });
    await runner.start();
    const idle = runner.whenIdle();
    await vi.advanceTimersByTimeAsync(120_000);
    await idle;
    await runner.stop();
    const polls = client.calls.filter((c) => c.endpoint === 'getAnalysis');
    expect(polls).toHaveLength(3 * 5); // at 0, 10, 20, 30 and 40 s after the first poll
    expect(db.prepare(`SELECT state, count(*) n FROM analyses GROUP BY 1`).all()).toEqual([
      { state: 'completed', n: 6 },
    ]);
  });
});

describe('the upload lane', () => {
  it('pauses for the time a rate limit asks, then resumes by itself', async () => {
    seed({ processing: 0, queued: 5 });
    const client = createFakeClient(Date.now);
    client.uploadScript.push(rateLimited(90_000));
    const events: string[] = [];
    const runner = createQueueRunner({
      store,
      client,
      profileId: 1,
      openAudio,
      queue: { uploadConcurrency: 1, uploadsPerMinute: 600 },
      onEvent: (e) => {
        if (e.type.startsWith('queue')) events.push(e.type);
      },
    });
    await runner.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runner.state().pause?.untilMs).toBe(T0 + 90_000 + (client.calls[0]!.at - T0));
    expect(client.calls.filter((c) => c.endpoint === 'upload')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.calls.filter((c) => c.endpoint === 'upload').length).toBe(6); // the refused one again, then the rest
    expect(events).toEqual(['queue-paused', 'queue-resumed']);
    await runner.stop();
    expect(
      (
        db
          .prepare(
            `SELECT count(*) n FROM recordings WHERE upload_state = 'uploaded' AND upload_attempts = 1`,
          )
          .get() as { n: number }
      ).n,
    ).toBe(5);
  });

  it('respects the upload rate', async () => {
    seed({ processing: 0, queued: 20 });
    const client = createFakeClient(Date.now);
    const runner = createQueueRunner({
      store,
      client,
      profileId: 1,
      openAudio,
      queue: { uploadConcurrency: 4, uploadsPerMinute: 6 },
    });
    await runner.start();
    await vi.advanceTimersByTimeAsync(60_000);
    await runner.stop();
    const uploads = client.calls.filter((c) => c.endpoint === 'upload');
    expect(uploads.length).toBeGreaterThanOrEqual(6);
    expect(uploads.length).toBeLessThanOrEqual(7);
  });

  it('stops sending on an organisation-wide refusal until the researcher resumes, across a restart', async () => {
    seed({ processing: 0, queued: 3 });
    const client = createFakeClient(Date.now);
    client.uploadScript.push(unauthorized());
    const first = createQueueRunner({ store, client, profileId: 1, openAudio });
    await first.start();
    await vi.advanceTimersByTimeAsync(30_000);
    await first.stop();
    expect(first.state().pause?.error?.kind).toBe('Unauthorized');
    const second = createQueueRunner({ store, client, profileId: 1, openAudio });
    await second.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(client.calls.filter((c) => c.endpoint === 'upload')).toHaveLength(1);
    expect(second.state().pause?.reason).toMatch(/key/i);
    second.resume();
    await vi.advanceTimersByTimeAsync(30_000);
    await second.stop();
    expect(
      (db.prepare(`SELECT count(*) n FROM recordings WHERE upload_state = 'uploaded'`).get() as { n: number })
        .n,
    ).toBe(3);
  });
});
