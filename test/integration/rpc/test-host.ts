/**
 * The app host as the window sees it, for handler tests: `openAppHost` on a temporary workspace with
 * the built-in sandbox (fast scenario, a known admin token for fault injection), fast engine tuning,
 * and `call` going through the router exactly as an IPC or WebSocket message would (input and output
 * parsed against the contract). With `now`, the host's clock is fixed (recency and timelines of a
 * study seeded through seed.ts); without it, the engine runs in real time against the sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppHost } from '../../../main/app-host';
import { openHost } from '../../support/open-host';
import { testStudyOpener } from '../../support/test-engine';
import type { Db } from '../../../main/db/open';
import type { Store } from '../../../main/db/store/types';
import type { Dialogs } from '../../../main/rpc/handlers/deps';
import type { CallResult, EventName, EventPayload, Input, Method, Output } from '../../../shared/contract';

export interface TestHost {
  readonly host: AppHost;
  /** The host's study store (SQLite or PGlite, as the run's engine): what a test seeds and reads through. */
  readonly store: Store;
  /** The SQLite handle, for the few tests that inspect the SQLite file itself; null on PGlite. */
  readonly db: Db | null;
  readonly root: string;
  call<M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>>;
  /** The value of a call that must succeed (the test fails with the researcher-facing message otherwise). */
  must<M extends Method>(method: M, input: Input<M>): Promise<Output<M>>;
  /** Every event published on the bus since the host opened. */
  events<E extends EventName>(name: E): EventPayload<E>[];
  sandboxAdmin(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<unknown>;
  /** A study on the built-in sandbox (v1.3 unless said otherwise). */
  sandboxStudy(name: string, apiVersion?: 'v1.3' | 'v1.2'): Promise<{ studyId: number; profileId: number }>;
  close(): Promise<void>;
}

const ADMIN = 'rpc-test-admin-token-0001';

export const openTestHost = async (opts: { dialogs?: Dialogs; now?: number } = {}): Promise<TestHost> => {
  const root = mkdtempSync(join(tmpdir(), 'vs-rpc-'));
  const host = await openHost({
    workspaceDir: join(root, 'home'),
    mode: 'browser',
    keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'test' },
    sandboxScenario: 'fast',
    sandboxAdminToken: ADMIN,
    ...(testStudyOpener() ? { openStudy: testStudyOpener()! } : {}),
    engine: {
      poll: {
        firstPollAfterMs: 5_000,
        intervalMs: 5_000,
        jitterMs: 0,
        globalRatePerSecond: 25,
        globalBurst: 10,
      },
      queue: { uploadConcurrency: 4, uploadsPerMinute: 6_000 },
      idleRecheckMs: 200,
      ...(opts.now !== undefined ? { now: () => opts.now! } : {}),
    },
    ...(opts.dialogs ? { dialogs: opts.dialogs } : {}),
    // An answer outside the contract or an internal error fails the test that caused it.
    log: {
      error: (m, d) => {
        if (process.env.VS_DEBUG) console.error(m, d);
        throw new Error(`${m} ${JSON.stringify(d)}`);
      },
    },
  });
  const seen: { name: string; payload: unknown }[] = [];
  host.bus.subscribe((name, payload) => {
    seen.push({ name, payload });
  });
  const call = async <M extends Method>(method: M, input: Input<M>) =>
    (await host.router.handle(method, input, { via: 'direct' })) as CallResult<M>;
  const self: TestHost = {
    host,
    store: host.service.store,
    db: host.sqliteDb,
    root,
    call,
    async must(method, input) {
      const r = await call(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message} ${r.error.action}`);
      return r.value;
    },
    events: <E extends EventName>(name: E) =>
      seen.filter((e) => e.name === name).map((e) => e.payload as EventPayload<E>),
    async sandboxAdmin(method, path, body) {
      const url = host.sandbox.state().url;
      if (!url) throw new Error('the built-in sandbox is not running');
      const send = () =>
        fetch(`${url}/_sandbox/${path.replace(/^\//, '')}`, {
          method,
          headers: { 'X-Sandbox-Admin': ADMIN, 'Content-Type': 'application/json' },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
      // Every admin call is a GET or a PUT, so sending one again is safe. A kept-alive connection the
      // sandbox closed for idleness while the test's process was busy resets the next call on it (CI).
      const res = await send().catch((e: unknown) => {
        if (!(e instanceof TypeError)) throw e;
        return send();
      });
      if (!res.ok) throw new Error(`sandbox admin ${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    async sandboxStudy(name, apiVersion = 'v1.3') {
      const profile = await self.must('profiles.useSandbox', { apiVersion });
      const study = await self.must('studies.create', { name, profileId: profile.id });
      return { studyId: study.id, profileId: profile.id };
    },
    async close() {
      await host.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return self;
};

/** Polls `check` until it returns a value (not undefined/false) or the time is up. */
export const eventually = async <T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 60_000,
): Promise<Exclude<T, false | undefined | null>> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false && v !== null) return v as Exclude<T, false | undefined | null>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Previews a folder (with its manifest) for the study and commits it: the batch id and what the preview counted. */
export const importFolder = async (
  t: TestHost,
  studyId: number,
  paths: readonly string[],
  opts: {
    manifestPath?: string;
    pattern?: string;
    convert?: boolean;
    analyses?: Input<'imports.preview'>['analyses'];
    label?: string;
    insist?: string[];
  } = {},
) => {
  const preview = await t.must('imports.preview', {
    studyId,
    paths: [...paths],
    ...(opts.manifestPath ? { manifestPath: opts.manifestPath } : {}),
    ...(opts.pattern ? { filenamePattern: opts.pattern } : {}),
    timeZone: 'Europe/Berlin',
    analyses: opts.analyses ?? ['wellbeing', 'parkinsons'],
    isolateOldestSpeaker: false,
    convert: opts.convert ?? true,
  });
  const committed = await t.must('imports.commit', {
    planId: preview.planId,
    insistOnDuplicates: opts.insist ?? [],
    label: opts.label ?? 'test batch',
  });
  return { preview, ...committed };
};

/** Creates the study's missing accounts, checks credits and starts the batch, as the wizard's last step does. */
export const startBatch = async (t: TestHost, studyId: number, batchId: number) => {
  await t.must('participants.createAccounts', { studyId });
  const credits = await t.must('batches.credits', { batchId });
  const started = await t.must('batches.start', { batchId });
  return { credits, started };
};

export const batchSettles = (t: TestHost, batchId: number, timeoutMs = 60_000) =>
  eventually(
    async () => {
      const b = await t.must('batches.get', { batchId });
      const busy = (b.uploads.queued ?? 0) + (b.uploads.uploading ?? 0) + (b.analysesByState.processing ?? 0);
      return b.state !== 'running' && busy === 0 ? b : undefined;
    },
    `batch ${batchId} to settle`,
    timeoutMs,
  );
