/**
 * The scheduler with 10,000 recordings waiting for results: CPU and memory of the queue runner over
 * real time (default settings: the global budget of 2 requests/s is always the limit), against an
 * in-memory client that answers "processing" after 20 ms. Also the cost of finding the next due poll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb } from '../../main/db/open';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { batchProgress } from '../../main/db/repos/batches.repo';
import { nextDueAt } from '../../main/engine/poll-step';
import { createQueueRunner } from '../../main/engine/queue-runner';
import { createFakeClient } from '../support/fake-client';

const PENDING = 10_000;
const SECONDS = Number(process.env['VS_BENCH_SCHEDULER_S'] ?? 30);

export const benchScheduler = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-schedbench-'));
  const { db } = openStudyDb(join(dir, 'study.sqlite'));
  const store = sqliteStore(db);
  try {
    db.prepare(
      `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
    ).run();
    db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`).run();
    db.prepare(
      `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P1', 'acc-1', 'x')`,
    ).run();
    db.prepare(
      `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'x', '["wellbeing","parkinsons","alzheimers"]', 'finished')`,
    ).run();
    const rec =
      db.prepare(`INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, uploaded_at, created_at)
                            VALUES (1, 1, 1, ?, ?, 1, '2026-01-01T00:00:00Z', 'manifest', 'uploaded', ?, ?, 'x')`);
    const an = db.prepare(
      `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', 'x', ?)`,
    );
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < PENDING; i++) {
        const uploaded = new Date(now - 60_000).toISOString();
        const id = Number(
          rec.run(`/f/${i}.wav`, `h${i}`, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, uploaded)
            .lastInsertRowid,
        );
        const due = new Date(now + (i % 600) * 1_000).toISOString(); // spread over ten minutes
        for (const t of ['wellbeing', 'parkinsons', 'alzheimers']) an.run(id, t, due);
      }
    })();
    let t = performance.now();
    for (let i = 0; i < 1_000; i++) await nextDueAt(store, 1);
    const dueQueryMs = (performance.now() - t) / 1_000;
    t = performance.now();
    for (let i = 0; i < 20; i++) await batchProgress(store, 1);
    const progressMs = (performance.now() - t) / 20;

    const client = createFakeClient(Date.now);
    const slow = client.getAnalysis;
    Object.assign(client, {
      getAnalysis: async (id: string, types?: never) => {
        await new Promise((r) => setTimeout(r, 20));
        return slow(id, types);
      },
    });
    globalThis.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 100);
    const cpu0 = process.cpuUsage();
    t = performance.now();
    const runner = createQueueRunner({ store, client, profileId: 1 });
    await runner.start();
    await new Promise((r) => setTimeout(r, SECONDS * 1_000));
    await runner.stop();
    const wallS = (performance.now() - t) / 1_000;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    const polls = client.calls.filter((c) => c.endpoint === 'getAnalysis').length;
    const cpuMs = (cpu.user + cpu.system) / 1_000;
    return [
      `${PENDING} recordings waiting (${3 * PENDING} analyses), default settings (2 requests/s, burst 4), ${wallS.toFixed(0)} s of real time:`,
      `  polls sent: ${polls} (${(polls / wallS).toFixed(2)}/s)`,
      `  CPU: ${cpuMs.toFixed(0)} ms = ${((cpuMs / 1_000 / wallS) * 100).toFixed(2)} % of one core; ${(cpuMs / Math.max(1, polls)).toFixed(2)} ms per poll (query, store, schedule)`,
      `  RSS: ${(rss0 / 2 ** 20).toFixed(0)} MiB before, peak ${(peak / 2 ** 20).toFixed(0)} MiB (+${((peak - rss0) / 2 ** 20).toFixed(1)} MiB)`,
      `  finding the next due poll among ${3 * PENDING} analyses: ${dueQueryMs.toFixed(3)} ms`,
      `  counting one batch of ${PENDING} recordings for a progress event: ${progressMs.toFixed(2)} ms`,
    ];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchScheduler()) console.log(l);
