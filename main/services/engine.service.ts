/**
 * The engine's moving parts: an API client per profile (built from the profile's address and key) and
 * a queue runner per profile with a readable key, tuned by the researcher's saved settings.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../shared/result';
import { DEFAULT_QUEUE, type QueueSettings } from '../../shared/study';
import type { ApiClient } from '../api/client';
import { allProfiles, profileById } from '../db/repos/profiles.repo';
import { absentHolders, workForPresentWorkstations, type AbsentHolder } from '../db/repos/workstations.repo';
import { studyProfileId } from '../db/repos/studies.repo';
import { DEFAULT_LEASE_SECONDS } from '../engine/runner-core';
import { readSetting, writeSetting } from '../db/repos/settings.repo';
import { engineClock } from '../engine/database-clock';
import { createQueueRunner, type QueueRunner } from '../engine/queue-runner';
import { clampPollSettings, type PollSettings } from '../jobs/poll-schedule';
import { keyedClient } from './key-address';
import { sendingKeyRef } from './service-key';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';

export interface EngineService {
  /** The researcher's tuning of the poller and the queue, within the spec's limits; persisted. */
  settings(): Promise<{ poll: PollSettings; queue: QueueSettings }>;
  /** Saves new tuning (clamped to the spec); running queues pick it up when they next start. */
  saveSettings(s: { poll?: Partial<PollSettings>; queue?: Partial<QueueSettings> }): Promise<{
    poll: PollSettings;
    queue: QueueSettings;
  }>;
  /** Restarts the running queues (after new settings); requests in flight settle first. */
  restartEngine(): Promise<void>;
  /** Starts a queue runner for every profile whose key can be read (resolves once each is made; each starts by itself). */
  startEngine(): Promise<void>;
  runnerFor(profileId: number): QueueRunner | null;
  /** Something changed in the database (files queued by hand): every queue looks now. */
  wake(): void;
  pauseSending(profileId: number, reason?: string): Promise<void>;
  resumeSending(profileId: number): Promise<void>;
  /**
   * Workstations away (not seen for a lease) that alone hold files of the study's recordings still to
   * be sent: those wait until it comes back (or the files are found on another workstation).
   */
  waitingForWorkstations(studyId: number): Promise<AbsentHolder[]>;
  /** Why this workstation cannot send the study's files (no service profile, or no key it can read); null when it can. */
  sendingProblem(studyId: number): Promise<ServiceProblem | null>;
  /**
   * The away workstations the study waits for when nothing else is left that a present workstation
   * could do (no upload another workstation can send, no analysis processing); none otherwise.
   */
  waitingOnlyForWorkstations(studyId: number): Promise<AbsentHolder[]>;
}

/** The engine as the other parts of the service use it. */
export interface Engine {
  readonly service: EngineService;
  clientFor(profileId: number): Promise<Result<ApiClient, ServiceProblem>>;
  /** The profile's runner, started if it was not (null when its key cannot be read). */
  ensureRunner(profileId: number): Promise<QueueRunner | null>;
  hasRunner(profileId: number): boolean;
  /** Drops the profile's client and stops its runner (requests in flight settle first), so the next use reads the profile again. */
  forgetProfile(profileId: number): Promise<void>;
  stopAll(): Promise<void>;
}

export const createEngine = (ctx: ServiceContext): Engine => {
  const { store, keys, now, emit, options: o } = ctx;
  const clients = new Map<number, ApiClient>();
  const runners = new Map<number, QueueRunner>();
  const leaseSeconds = o.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const waitingFor = async (studyId: number): Promise<AbsentHolder[]> =>
    (await absentHolders(store, studyId, leaseSeconds)).map((a) => ({ ...a, waiting: Number(a.waiting) }));
  /** Runners being made (their settings are read first): a second ask waits for the same one. */
  const making = new Map<number, Promise<QueueRunner | null>>();

  /** Bumped by forgetProfile: a client built from the profile as it was read before is not kept. */
  const forgotten = new Map<number, number>();

  const clientFor = async (profileId: number): Promise<Result<ApiClient, ServiceProblem>> => {
    const cached = clients.get(profileId);
    if (cached) return ok(cached);
    const generation = forgotten.get(profileId) ?? 0;
    const p = await profileById(store, profileId);
    if (!p)
      return err(problem('This service profile does not exist.', 'Choose another profile or create one.'));
    const ref = sendingKeyRef(keys, ctx.member, p);
    if (!ref.ok) return ref;
    // The log knows the key before anything can use it (a profile another process added, too).
    if (ref.value !== null) ctx.logFacts.noteKeyRef(ref.value);
    const key = keys.load(ref.value);
    if (!key.ok) return err(problem(key.error, 'Open the profile and enter its API key.'));
    const c = keyedClient({
      ...o.client,
      profile: { baseUrl: p.base_url, version: p.api_version, apiKey: key.value },
      now,
    });
    // Another call may have built one meanwhile: every caller shares the first (its budget, its clock offset).
    const first = clients.get(profileId);
    if (first) return ok(first);
    if ((forgotten.get(profileId) ?? 0) === generation) clients.set(profileId, c);
    return ok(c);
  };
  const wakeAll = () => {
    for (const r of runners.values()) r.wake();
  };
  const forgetProfile = async (profileId: number) => {
    await making.get(profileId)?.catch(() => null);
    forgotten.set(profileId, (forgotten.get(profileId) ?? 0) + 1);
    clients.delete(profileId);
    const r = runners.get(profileId);
    runners.delete(profileId);
    if (r) await r.stop();
  };

  // Stored tuning: numbers by name (an unknown name is ignored by the settings it is spread into).
  const saved = async <T>(key: string): Promise<Partial<T>> =>
    ((await readSetting(store, key, z.record(z.string(), z.number()))) ?? {}) as Partial<T>;
  const currentSettings = async () => {
    const poll = clampPollSettings({ ...(await saved<PollSettings>('poll')), ...o.poll });
    const q = { ...DEFAULT_QUEUE, ...(await saved<QueueSettings>('queue')), ...o.queue };
    return {
      poll,
      queue: {
        uploadConcurrency: Math.max(1, Math.min(8, Math.floor(q.uploadConcurrency))),
        uploadsPerMinute: Math.max(1, Math.min(600, q.uploadsPerMinute)),
      },
    };
  };

  const makeRunner = async (profileId: number): Promise<QueueRunner | null> => {
    const c = await clientFor(profileId);
    if (!c.ok) return null;
    const tuned = await currentSettings();
    const r = createQueueRunner({
      store: ctx.store,
      dbPath: ctx.workspace.dbPath,
      client: c.value,
      profileId,
      workstation: ctx.workstation,
      ...(o.leaseSeconds !== undefined ? { leaseSeconds: o.leaseSeconds } : {}),
      seesPartOfStudy: ctx.member !== null && ctx.member.role !== 'owner',
      // A clock given by the caller (a test's) is kept; otherwise the database's on a shared database.
      now: o.now ?? (await engineClock(store, now)),
      onEvent: emit,
      poll: tuned.poll,
      queue: tuned.queue,
      ...(o.random ? { random: o.random } : {}),
      ...(o.idleRecheckMs !== undefined ? { idleRecheckMs: o.idleRecheckMs } : {}),
    });
    runners.set(profileId, r);
    // Not awaited: the runner recovers and starts its lanes by itself; a failure to start is its own to report.
    r.start().catch((e: unknown) => console.error(`queue runner ${profileId}: it could not start`, e));
    return r;
  };
  const ensureRunner = (profileId: number): Promise<QueueRunner | null> => {
    const existing = runners.get(profileId);
    if (existing) return Promise.resolve(existing);
    let made = making.get(profileId);
    if (!made) {
      made = makeRunner(profileId).finally(() => making.delete(profileId));
      making.set(profileId, made);
    }
    return made;
  };

  return {
    clientFor,
    ensureRunner,
    hasRunner: (profileId) => runners.has(profileId),
    forgetProfile,
    async stopAll() {
      await Promise.allSettled(making.values());
      await Promise.all([...runners.values()].map((r) => r.stop()));
      runners.clear();
    },
    service: {
      settings: currentSettings,
      async saveSettings(next) {
        if (next.poll)
          await writeSetting(
            store,
            'poll',
            clampPollSettings({ ...(await saved<PollSettings>('poll')), ...next.poll }),
          );
        if (next.queue)
          await writeSetting(store, 'queue', { ...(await saved<QueueSettings>('queue')), ...next.queue });
        return currentSettings();
      },
      async restartEngine() {
        const ids = [...runners.keys()];
        for (const id of ids) await forgetProfile(id);
        for (const id of ids) await ensureRunner(id);
      },
      async startEngine() {
        for (const p of await allProfiles(store)) await ensureRunner(p.id);
      },
      runnerFor: (profileId) => runners.get(profileId) ?? null,
      wake: wakeAll,
      async pauseSending(profileId, reason) {
        (await ensureRunner(profileId))?.pause(reason);
      },
      async resumeSending(profileId) {
        (await ensureRunner(profileId))?.resume();
      },
      async sendingProblem(studyId) {
        const profileId = await studyProfileId(store, studyId);
        if (profileId === null)
          return problem('This study has no service profile.', 'Choose a profile for the study.');
        const c = await clientFor(profileId);
        return c.ok ? null : c.error;
      },
      waitingForWorkstations: (studyId) => waitingFor(studyId),
      waitingOnlyForWorkstations: async (studyId) =>
        (await workForPresentWorkstations(store, studyId, leaseSeconds)) ? [] : await waitingFor(studyId),
    },
  };
};
