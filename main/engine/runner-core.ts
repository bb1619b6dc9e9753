/**
 * What the queue runner's parts share (queue-runner.ts): its settings with their defaults applied, the
 * progress hub, the request budget and upload rate (request-budget.ts), the waits every lane uses, and the runner's mutable
 * state. One is made per runner; the lanes (upload-lane.ts, poll-lane.ts), the pause (runner-pause.ts)
 * and idleness (runner-idle.ts) are functions of it.
 */
import type { ApiError } from '../../shared/api/api-error';
import { DEFAULT_QUEUE, type EngineEvent, type QueueSettings } from '../../shared/study';
import type { ApiClient } from '../api/client';
import type { DbProblem } from '../db/db-errors';
import type { Store } from '../db/store/types';
import { clampPollSettings, type PollSettings, type RequestBudget } from '../jobs/poll-schedule';
import { createProgressHub, type ProgressHub } from './progress';
import { requestBudget } from './request-budget';
import type { OpenAudio, QueuedRecording, UploadOneOutcome } from './upload-step';

export interface RunnerOptions {
  /** The study store: every repository of the engine goes through it. */
  readonly store: Store;
  /** The study database's file, named in the researcher's messages when it fails (none: in memory, or a server). */
  readonly dbPath?: string;
  readonly client: ApiClient;
  readonly profileId: number;
  readonly poll?: Partial<PollSettings>;
  readonly queue?: Partial<QueueSettings>;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly onEvent?: (e: EngineEvent) => void;
  readonly progressIntervalMs?: number;
  /** Longest idle wait before the lanes look at the database again (changes made by another process). */
  readonly idleRecheckMs?: number;
  /** After the database was found locked by another program, work resumes by itself this much later. */
  readonly busyRetryMs?: number;
  /** How files are opened for sending (default: from disk). */
  readonly openAudio?: OpenAudio;
  /** This workstation's name on the study database (main/workspace/workstation-name.ts). */
  readonly workstation?: string;
  /** How long a claim on an upload holds unless renewed; it is renewed every quarter of it. */
  readonly leaseSeconds?: number;
  /**
   * The login sees only some sites' rows (a coordinator on a team database): it finishes only batches it
   * sees whole, never one whose other sites' recordings are hidden from it.
   */
  readonly seesPartOfStudy?: boolean;
}

/** The workstation's name when the caller gives none (a study one process works on). */
export const LONE_WORKSTATION = 'this-workstation';
export const DEFAULT_LEASE_SECONDS = 60;

export interface RunnerState {
  readonly running: boolean;
  readonly pause: RunnerPause | null;
  readonly inFlight: number;
  /** Uploads the service answered whose outcome is not written yet (written first when work resumes). */
  readonly unrecorded: number;
}

export interface RunnerPause {
  readonly reason: string;
  readonly error: ApiError | null;
  readonly untilMs: number | null;
  /** Set when the pause is the database's: it stops polling too, and is never persisted (it could not be). */
  readonly storage?: DbProblem | undefined;
}

export type Unrecorded = Extract<UploadOneOutcome, { kind: 'unrecorded' }>;

export interface RunnerCore {
  readonly store: Store;
  readonly dbPath: string | undefined;
  readonly client: ApiClient;
  readonly profileId: number;
  readonly now: () => number;
  readonly random: () => number;
  readonly poll: PollSettings;
  readonly queue: QueueSettings;
  readonly idleRecheckMs: number;
  readonly busyRetryMs: number;
  readonly openAudio: OpenAudio | undefined;
  readonly workstation: string;
  readonly leaseSeconds: number;
  readonly seesPartOfStudy: boolean;
  /** Files other workstations hold that this one looked for: when it may look again (epoch ms), by recording. */
  readonly lookedFor: Map<number, number>;
  readonly emit: (e: EngineEvent) => void;
  readonly hub: ProgressHub;
  /** The request budget both lanes share (with every workstation, on a shared database). */
  readonly budget: RequestBudget;
  /** The upload rate, a budget of its own taken by uploads alone (shared likewise). */
  readonly uploadRate: RequestBudget;
  readonly inFlight: Map<number, Promise<void>>;
  /** Answered uploads whose outcome could not be written yet, by recording. */
  readonly unrecorded: Map<number, { row: QueuedRecording; out: Unrecorded }>;
  readonly idleWaiters: Set<() => void>;
  running: boolean;
  pause: RunnerPause | null;
  /** Whether rows left `uploading` by an earlier process were made uncertain since start. */
  recovered: boolean;
  /** The database connection came back since the last recovery: the next one keeps what this process is sending. */
  reconnected: boolean;
  /** The pause being written down: each write waits for the one before, so the last pause set is the one kept. */
  pauseWrite: Promise<void>;
  /** Waits up to `ms`, or until wake() or stop(). */
  nap(ms: number): Promise<void>;
  /** Waits exactly `ms` unless stopped (a reserved request slot must not be used early). */
  hold(ms: number): Promise<void>;
  /** Ends every nap now. */
  wake(): void;
}

export const createRunnerCore = (o: RunnerOptions): RunnerCore => {
  const now = o.now ?? Date.now;
  const poll = clampPollSettings(o.poll ?? {});
  const queue: QueueSettings = {
    uploadConcurrency: Math.max(1, Math.floor(o.queue?.uploadConcurrency ?? DEFAULT_QUEUE.uploadConcurrency)),
    uploadsPerMinute: Math.max(1, o.queue?.uploadsPerMinute ?? DEFAULT_QUEUE.uploadsPerMinute),
  };
  const emit = o.onEvent ?? (() => {});
  const wakers = new Set<() => void>();

  const core: RunnerCore = {
    store: o.store,
    dbPath: o.dbPath,
    client: o.client,
    profileId: o.profileId,
    now,
    random: o.random ?? Math.random,
    poll,
    queue,
    idleRecheckMs: o.idleRecheckMs ?? 5_000,
    busyRetryMs: o.busyRetryMs ?? 10_000,
    openAudio: o.openAudio,
    workstation: o.workstation ?? LONE_WORKSTATION,
    leaseSeconds: Math.max(1, o.leaseSeconds ?? DEFAULT_LEASE_SECONDS),
    seesPartOfStudy: o.seesPartOfStudy === true,
    lookedFor: new Map(),
    emit,
    hub: createProgressHub(o.store, emit, o.progressIntervalMs ?? 250),
    budget: requestBudget(
      o.store,
      {
        profileId: o.profileId,
        kind: 'requests',
        ratePerSecond: poll.globalRatePerSecond,
        burst: poll.globalBurst,
      },
      now,
    ),
    uploadRate: requestBudget(
      o.store,
      { profileId: o.profileId, kind: 'uploads', ratePerSecond: queue.uploadsPerMinute / 60, burst: 1 },
      now,
    ),
    inFlight: new Map(),
    unrecorded: new Map(),
    idleWaiters: new Set(),
    running: false,
    pause: null,
    recovered: false,
    reconnected: false,
    pauseWrite: Promise.resolve(),
    nap: (ms) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          wakers.delete(done);
          resolve();
        };
        const t = setTimeout(done, Math.max(0, Math.min(ms, 2 ** 31 - 1)));
        wakers.add(done);
      }),
    hold: async (ms) => {
      const until = now() + ms;
      while (core.running && now() < until) await core.nap(until - now());
    },
    wake: () => {
      for (const w of [...wakers]) w();
    },
  };
  return core;
};
