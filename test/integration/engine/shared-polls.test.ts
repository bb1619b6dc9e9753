/**
 * Workstations sharing one study database (PostgreSQL's dialect, on PGlite): polls are claimed in the
 * database, so two workstations polling at once never ask for one recording twice within the spec's
 * 5 seconds; the request budget is one token bucket in the database, so tokens taken by both are
 * counted once each, and a rate limit one of them met holds the other back too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPollStep } from '../../../main/engine/poll-step';
import { requestBudget } from '../../../main/engine/request-budget';
import { clampPollSettings, type RequestBudget } from '../../../main/jobs/poll-schedule';
import type { Store } from '../../../main/db/store/types';
import { createFakeClient } from '../../support/fake-client';
import { lentPglite, PGLITE_START_TIMEOUT } from '../../support/pglite';

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
let clock = T0;
const now = () => clock;
let store: Store;

const RECORDINGS = 6;
const settings = clampPollSettings({ firstPollAfterMs: 5_000, intervalMs: 5_000, jitterMs: 0 });

beforeEach(async () => {
  clock = T0;
  store = await lentPglite();
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://fake.invalid', 'v1.3', 'now')`,
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'now')`);
  await store.run(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P1', 'acc', 'now')`,
  );
}, PGLITE_START_TIMEOUT);

afterEach(async () => {
  await store.close();
});

/** Recordings accepted by the service at T0, each with two analyses first due at T0. */
const seedUploaded = async () => {
  for (let i = 1; i <= RECORDINGS; i++) {
    await store.run(
      `INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, accepted_at, created_at)
       VALUES (?, 1, 1, ?, ?, 100, '2026-03-01T10:00:00.000Z', 'manifest', 'uploaded', ?, ?, 'now')`,
      [i, `/f/${i}.wav`, String(i).padStart(64, '0'), `rec-${i}`, iso(T0)],
    );
    for (const type of ['wellbeing', 'parkinsons'])
      await store.run(
        `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', ?, ?)`,
        [i, type, iso(T0), iso(T0)],
      );
  }
};

const budgetOf = (kind: 'requests' | 'uploads', ratePerSecond: number, burst: number): RequestBudget =>
  requestBudget(store, { profileId: 1, kind, ratePerSecond, burst }, now);

describe('two workstations on one study database', () => {
  it('never poll the same recording twice within 5 s, and poll every recording that is due', async () => {
    await seedUploaded();
    const polls: { at: number; id: string; by: string }[] = [];
    /** A workstation: its own client and budget object; each request takes 100 ms of the shared clock. */
    const workstation = (by: string) => {
      const client = createFakeClient(now);
      const getAnalysis: typeof client.getAnalysis = async (id, types) => {
        polls.push({ at: clock, id, by });
        await Promise.resolve();
        clock += 100;
        return client.getAnalysis(id, types);
      };
      const budget = budgetOf('requests', 1_000, 1_000);
      return () =>
        runPollStep(
          store,
          { ...client, getAnalysis },
          {
            profileId: 1,
            now,
            settings,
            bucket: budget,
            random: () => 0.5,
            sleep: async () => {},
          },
        );
    };
    const a = workstation('a');
    const b = workstation('b');
    for (let round = 0; round < 24; round++) {
      await Promise.all([a(), b()]);
      clock += 1_000;
    }
    const byRecording = new Map<string, number[]>();
    for (const p of polls) byRecording.set(p.id, [...(byRecording.get(p.id) ?? []), p.at]);
    expect(byRecording.size).toBe(RECORDINGS);
    const gaps = [...byRecording.values()].flatMap((at) => at.slice(1).map((t, k) => t - at[k]!));
    expect(gaps.length).toBeGreaterThan(RECORDINGS * 3);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5_000);
    expect(new Set(polls.map((p) => p.by))).toEqual(new Set(['a', 'b']));
  });

  it('take the budget one token at a time: a burst of 4 at 2 per second is shared, not doubled', async () => {
    const a = budgetOf('requests', 2, 4);
    const b = budgetOf('requests', 2, 4);
    const waits = await Promise.all([a, b, a, b, a, b, a, b].map((x) => x.reserve()));
    expect(waits.toSorted((x, y) => x - y)).toEqual([0, 0, 0, 0, 500, 1_000, 1_500, 2_000]);
    clock += 2_000; // the debt of four is paid back; nothing left over
    expect(await a.reserve()).toBe(500);
    await b.refund();
    expect(await b.reserve()).toBe(500);
  });

  it('keep uploads to their own rate, beside the request budget', async () => {
    const uploads = budgetOf('uploads', 0.5, 1);
    const requests = budgetOf('requests', 10, 10);
    expect(await uploads.reserve()).toBe(0);
    expect(await requests.reserve()).toBe(0);
    expect(await uploads.reserve()).toBe(2_000);
    expect(await requests.reserve()).toBe(0);
  });

  it('hold each other back after a rate limit one of them met', async () => {
    const a = budgetOf('requests', 10, 10);
    const b = budgetOf('requests', 10, 10);
    expect(await b.reserve()).toBe(0);
    a.pauseUntil(clock + 7_000);
    await new Promise((r) => setTimeout(r, 50)); // the pause is written in the background
    expect(await b.reserve()).toBe(7_000);
    clock += 7_000;
    expect(await b.reserve()).toBe(0);
  });
});
