/**
 * A workstation on a team study (a PostgreSQL 15 server) whose database connection is lost, through a
 * TCP proxy the test cuts and restores (a network cut) and by the server ending its sessions: the
 * workstation says so once and again when it is back, its engine waits and carries on without a
 * restart, nothing is half-written, and no upload is sent twice.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseConnectionEvent, EngineEvent } from '../../../shared/study';
import { poolConfig } from '../../../main/db/store/connect';
import { openPgStore } from '../../../main/db/store/pg-store';
import type { Store } from '../../../main/db/store/types';
import type { Sandbox } from '../../../main/sandbox/server';
import { DATABASE_CONNECTION_WORDS } from '../../../main/services/database-connection';
import { openChosenStudyService } from '../../../main/services/open-study-service';
import type { StudyService } from '../../../main/services/study-service';
import { makeWav } from '../../fixtures/audio';
import { startCutProxy, type CutProxy } from '../../support/cut-proxy';
import { createSandboxStudy, startLabSandbox } from '../../support/lab-sandbox';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';
import { collectLines, spawnTs } from '../../support/spawn';

const UPLOAD_LATENCY_MS = 1_500;
const CLI = join(import.meta.dirname, '../../../main/cli/voicescope.ts');
const root = mkdtempSync(join(tmpdir(), 'vs-dbdrop-'));
let seed = 900;

/** A folder of `n` recordings of participant P-1 with its manifest; returns the manifest's path. */
const writeFiles = (name: string, n: number): string => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const rows = ['file,participant,recorded_at'];
  for (let i = 0; i < n; i++) {
    writeFileSync(join(dir, `r${i}.wav`), makeWav({ seconds: 40, speechSeconds: 32, seed: seed++ }));
    rows.push(`r${i}.wav,P-1,2026-02-0${1 + i}T10:00:00Z`);
  }
  writeFileSync(join(dir, 'manifest.csv'), rows.join('\n'));
  return join(dir, 'manifest.csv');
};

const waitFor = async <T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000) => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

let cluster: PostgresCluster;
let sandbox: Sandbox;
let proxy: CutProxy;
let observer: Store;
let svc: StudyService;
let studyId: number;
let profileId: number;
const connectionEvents: DatabaseConnectionEvent[] = [];
/** The batch the mid-import case commits once the connection is back; the last case starts it. */
let importedAfterwards: number;
/** Lets go of the lock the mid-import case holds (also when it fails, so that the engine can stop). */
let release: (() => void) | undefined;

/** The study database's address through the proxy, with the password or without. */
const throughProxy = (withPassword: boolean) =>
  cluster.url(withPassword).replace(`@localhost:${cluster.port}/`, `@localhost:${proxy.port}/`);

const states = async () =>
  Object.fromEntries(
    (
      await observer.all<{ k: string; n: number }>(
        `SELECT upload_state AS k, count(*) AS n FROM recordings GROUP BY upload_state`,
      )
    ).map((r) => [r.k, Number(r.n)]),
  );
const count = async (table: string) =>
  Number((await observer.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n);
const uploadRequests = () => sandbox.requestLog().filter((r) => r.endpoint === 'upload').length;
const connectionStates = () => connectionEvents.map((e) => e.state);

const importFiles = async (manifestPath: string) => {
  const plan = await svc.planImport({
    studyId,
    paths: [],
    manifestPath,
    timeZone: 'UTC',
    analyses: ['wellbeing'],
    isolateOldestSpeaker: false,
    convert: false,
  });
  if (!plan.ok) throw new Error(plan.error.message);
  return plan.value;
};

const sendAll = async (manifestPath: string) => {
  const { batchId } = await svc.commitImport(await importFiles(manifestPath));
  const accounts = await svc.createAccounts(studyId);
  if (!accounts.ok) throw new Error(accounts.error.message);
  const started = await svc.startBatch(batchId);
  if (!started.ok) throw new Error(started.error.message);
  return batchId;
};

const allSettled = () =>
  waitFor('every upload settled', async () => {
    const s = await states();
    return (s['queued'] ?? 0) + (s['uploading'] ?? 0) + (s['pending'] ?? 0) === 0;
  });

describeWithTool('postgresql-15', 'a lost study database connection', () => {
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    sandbox = await startLabSandbox({
      scenario: {
        preset: 'fast',
        processingMs: { wellbeing: 500 },
        latency: { upload: { fixedMs: UPLOAD_LATENCY_MS, jitterMs: 0 } },
      },
    });
    proxy = await startCutProxy({ host: '127.0.0.1', port: cluster.port });
    const opened = await openChosenStudyService(
      {
        workspaceDir: join(root, 'workstation'),
        onEvent: (e: EngineEvent) => {
          if (e.type === 'database-connection') connectionEvents.push(e);
        },
        queue: { uploadConcurrency: 1, uploadsPerMinute: 600 },
        idleRecheckMs: 200,
      },
      throughProxy(true),
    );
    if (!opened.ok) throw new Error(opened.error);
    svc = opened.value.service;
    observer = openPgStore({
      ...poolConfig(cluster.address, cluster.password),
      application_name: 'observer',
    });
    ({ studyId, profileId } = await createSandboxStudy(svc, sandbox, 'Dropped'));
  }, 120_000);

  afterAll(async () => {
    release?.();
    await svc?.close();
    await observer?.close();
    await proxy?.close();
    await sandbox?.close();
    cluster?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('mid-upload: the answer that arrives while the database is cut off is stored once it is back, and nothing is sent twice', async () => {
    await sendAll(writeFiles('upload', 3));
    // The first upload's intent is committed and its request is on its way to the service.
    const first = await waitFor(
      'an upload in flight',
      async () =>
        (await observer.get<{ id: number }>(`SELECT id FROM recordings WHERE upload_state = 'uploading'`))
          ?.id,
    );
    const cutAt = Date.now();
    proxy.cut();
    await waitFor('the loss told', () => connectionStates().includes('lost'));
    const noticedMs = Date.now() - cutAt;
    // The service answers while the workstation cannot write: the answer is kept, the row half-way nowhere.
    await waitFor('the answer kept', () => svc.runnerFor(profileId)!.state().unrecorded === 1, 10_000);
    expect(await observer.get(`SELECT upload_state FROM recordings WHERE id = ?`, [first])).toEqual({
      upload_state: 'uploading',
    });
    expect(await count(`analyses WHERE recording_id = ${first}`)).toBe(0);
    // The engine waits rather than sending on: nothing more leaves while the database is away.
    const sentWhileCut = uploadRequests();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(uploadRequests()).toBe(sentWhileCut);
    expect(svc.runnerFor(profileId)!.state().running).toBe(true);

    const restoredAt = Date.now();
    proxy.restore();
    await waitFor('the return told', () => connectionStates().at(-1) === 'restored');
    const backMs = Date.now() - restoredAt;
    await allSettled();
    console.log(
      `cut for ${Math.round((restoredAt - cutAt) / 100) / 10} s: lost told ${noticedMs} ms after the cut, restored ${backMs} ms after the network came back, uploads settled ${Date.now() - restoredAt} ms after`,
    );
    expect(connectionStates()).toEqual(['lost', 'restored']);
    expect(await observer.get(`SELECT upload_state FROM recordings WHERE id = ?`, [first])).toEqual({
      upload_state: 'uploaded',
    });
    expect(await states()).toEqual({ uploaded: 3 });
    // Each recording sent once: one intent each, three requests, three distinct recordings on the service.
    expect(uploadRequests()).toBe(3);
    expect(
      Number((await observer.get<{ n: number }>(`SELECT max(upload_attempts) AS n FROM recordings`))!.n),
    ).toBe(1);
    expect(new Set(sandbox.listRecordings().map((r) => r.audioSha256)).size).toBe(3);
    expect(await count(`analyses`)).toBe(3);
    // Said in a researcher's words, without the server's address or the password.
    for (const e of connectionEvents) {
      expect(e.message).not.toContain(String(proxy.port));
      expect(e.message).not.toContain('localhost');
      expect(e.message).not.toContain(cluster.password);
    }
  }, 120_000);

  it('mid-import: the import transaction open when the connection is cut leaves nothing behind, and imports once afterwards', async () => {
    const before = { batches: await count('batches'), recordings: await count('recordings') };
    const participants = await count('participants');
    const plan = await importFiles(writeFiles('import', 2));
    // Another session holds the recordings table, so the import's transaction stops half-way, open.
    const held = observer.transaction(async (tx) => {
      await tx.run(`LOCK TABLE recordings IN ACCESS EXCLUSIVE MODE`);
      await new Promise<void>((r) => (release = r));
    });
    await waitFor('the lock', () => release !== undefined);
    const committing = svc.commitImport(plan).then(
      () => 'committed',
      (e: unknown) => e,
    );
    try {
      // The engine's reads of the queue wait for the lock too; the import's insert is the one looked for.
      const waiting = await waitFor('the import waiting inside its transaction', () =>
        observer.get<{ in_transaction: number }>(
          `SELECT ${observer.dialect.flag('xact_start IS NOT NULL')} AS in_transaction FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND application_name = 'voicescope' AND query LIKE '%INSERT INTO recordings%'`,
        ),
      );
      expect(waiting.in_transaction).toBe(1);
      proxy.cut();
      const outcome = await committing;
      expect(outcome).toBeInstanceOf(Error);
    } finally {
      release?.();
      await held;
    }
    // The server rolled the whole import back: no batch, no recording, no participant.
    await waitFor(
      'the server to end the session',
      async () =>
        Number(
          (await observer.get<{ n: number }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'voicescope' AND state LIKE '%transaction%'`,
          ))!.n,
        ) === 0,
    );
    expect({ batches: await count('batches'), recordings: await count('recordings') }).toEqual(before);
    expect(await count('participants')).toBe(participants);

    proxy.restore();
    await waitFor('the return told', () => connectionStates().at(-1) === 'restored');
    expect(connectionStates()).toEqual(['lost', 'restored', 'lost', 'restored']);
    // The same preview, committed again once the connection is back: one batch of two.
    const again = await svc.commitImport(plan);
    expect(again.recordings).toBe(2);
    importedAfterwards = again.batchId;
    expect(await count('batches')).toBe(before.batches + 1);
    expect(await count('recordings')).toBe(before.recordings + 2);
  }, 120_000);

  it('sessions ended by the server: the workstation reconnects by itself and its engine carries on without a restart', async () => {
    const told = connectionEvents.length;
    const sent = uploadRequests();
    // The engine is working (the import's two files, then one more): the server ends every session of the workstation.
    const started = await svc.startBatch(importedAfterwards);
    if (!started.ok) throw new Error(started.error.message);
    await sendAll(writeFiles('terminated', 1));
    await waitFor('the server ending a session', () => {
      const ended = cluster.superuser(
        `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'voicescope') t`,
        'study',
      );
      return /\b[1-9]\d*\b/.test(ended);
    });
    await waitFor(
      'the return told',
      () => connectionStates().at(-1) === 'restored' && connectionEvents.length > told,
    );
    expect(connectionStates().slice(told)).toEqual(['lost', 'restored']);
    await allSettled();
    const s = await states();
    expect((s['uploaded'] ?? 0) + (s['upload_uncertain'] ?? 0)).toBe(6);
    // Nothing sent twice: one request per recording at most, and every uncertain one says why.
    expect(uploadRequests() - sent).toBeLessThanOrEqual(3);
    expect(
      Number((await observer.get<{ n: number }>(`SELECT max(upload_attempts) AS n FROM recordings`))!.n),
    ).toBe(1);
    expect(new Set(sandbox.listRecordings().map((r) => r.audioSha256)).size).toBe(
      sandbox.listRecordings().length,
    );
    expect(svc.runnerFor(profileId)!.state().running).toBe(true);
  }, 120_000);

  it('voicescope run: prints the loss and the return in the same words as it happens, and keeps running', async () => {
    const home = join(root, 'cli-workstation');
    mkdirSync(home, { recursive: true });
    cpSync(join(root, 'workstation', 'keys'), join(home, 'keys'), { recursive: true }); // given the keys once
    const child = spawnTs(CLI, ['run', '--home', home, '--json'], [], {
      VOICESCOPE_DATABASE_URL: throughProxy(false),
    });
    const exited = new Promise((r) => child.once('exit', r));
    const lines = collectLines(child);
    const said = () =>
      lines
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { kind: string; state?: string; message: string })
        .filter((l) => l.kind === 'database-connection');
    try {
      await waitFor('the engine running', () => lines.some((l) => l.includes('"kind":"running"')), 60_000);
      proxy.cut();
      await waitFor('the loss printed', () => said().length === 1);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(child.exitCode).toBe(null);
      proxy.restore();
      await waitFor('the return printed', () => said().length === 2);
      expect(said().map((l) => [l.state, l.message])).toEqual([
        ['lost', DATABASE_CONNECTION_WORDS.lost],
        ['restored', DATABASE_CONNECTION_WORDS.restored],
      ]);
      expect(child.exitCode).toBe(null);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
