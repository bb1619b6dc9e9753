/**
 * The study engine as one service: what the command line and the IPC handlers call. It owns the study
 * database, the key store, an API client per profile and a queue runner per profile with a key.
 * Every method returns data or a Result; refusals carry the researcher-facing explanation.
 */
import type { ApiError } from '../../shared/api/api-error';
import { explainApiError } from '../../shared/api/api-error';
import type { Usage } from '../../shared/api/domain';
import { analysisTypesFor, type ApiVersion } from '../../shared/api/vocabulary';
import { err, ok, type Result } from '../../shared/result';
import { DEFAULT_QUEUE } from '../../shared/study';
import type {
  BatchProgress,
  CreditCheckView,
  EngineEvent,
  ImportPlan,
  ImportRequest,
  ProfileSummary,
  QueueSettings,
  StudySummary,
  UncertainUpload,
} from '../../shared/study';
import { createApiClient, type ApiClient, type ClientOptions } from '../api/client';
import { openStudyDb, type Db } from '../db/open';
import { batchesOfStudy, batchProgress, moveBatch, reopenBatchesOf } from '../db/repos/batches.repo';
import { appendAudit } from '../db/repos/audit.repo';
import { appendEvent } from '../db/repos/event-log.repo';
import { readSetting, writeSetting } from '../db/repos/settings.repo';
import { latestUsage, recordUsage } from '../db/repos/usage.repo';
import { resolveUncertain as resolveUncertainRow } from '../db/repos/uploads.repo';
import { createMissingAccounts, type AccountCreationReport } from '../engine/accounts';
import { checkCredits } from '../engine/credit-check';
import { createQueueRunner, type QueueRunner } from '../engine/queue-runner';
import { commitImport, type CommitResult } from '../import/import-commit';
import { planImport } from '../import/import-plan';
import { clampPollSettings, type PollSettings } from '../jobs/poll-schedule';
import { createKeyStore, type KeyStore, type KeyVault } from './key-store';
import { openWorkspace, type Workspace } from './workspace';

/** A refusal of the service layer, in the researcher's words. */
export interface ServiceProblem {
  readonly message: string;
  readonly action: string;
  readonly apiError?: ApiError;
}

const problem = (message: string, action: string): ServiceProblem => ({ message, action });
const fromApi = (e: ApiError): ServiceProblem => {
  const x = explainApiError(e);
  return { message: x.summary, action: x.action, apiError: e };
};

export interface StudyServiceOptions {
  readonly workspaceDir: string;
  readonly vault?: KeyVault;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly poll?: Partial<PollSettings>;
  readonly queue?: Partial<QueueSettings>;
  readonly client?: Partial<Omit<ClientOptions, 'profile'>>;
  readonly onEvent?: (e: EngineEvent) => void;
  readonly idleRecheckMs?: number;
}

interface ProfileRow {
  id: number;
  name: string;
  base_url: string;
  api_version: ApiVersion;
  key_ref: string | null;
  is_sandbox: number;
}

const toProfile = (r: ProfileRow): ProfileSummary => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  apiVersion: r.api_version,
  isSandbox: r.is_sandbox === 1,
  keyRef: r.key_ref,
});

export interface StudyService {
  readonly db: Db;
  readonly workspace: Workspace;
  createProfile(p: {
    name: string;
    baseUrl: string;
    apiVersion: ApiVersion;
    apiKey?: string;
    keyEnv?: string;
    isSandbox?: boolean;
  }): Result<ProfileSummary, ServiceProblem>;
  listProfiles(): ProfileSummary[];
  /** Stores a new key for the profile (or removes it with null); its queue restarts with the new key. */
  setProfileKey(profileId: number, apiKey: string | null): Promise<Result<ProfileSummary, ServiceProblem>>;
  /** Moves a profile to another address (the built-in sandbox gets a new port each launch); its queue restarts. */
  setProfileAddress(profileId: number, baseUrl: string): Promise<Result<ProfileSummary, ServiceProblem>>;
  /** The service's answer to ping (no key needed, but through the profile's address). */
  pingProfile(profileId: number): Promise<Result<string, ServiceProblem>>;
  /** Checks address and key: a ping and a usage read. */
  testProfile(profileId: number): Promise<Result<Usage, ServiceProblem>>;
  createStudy(p: { name: string; profileId: number }): Result<StudySummary, ServiceProblem>;
  listStudies(): StudySummary[];
  findStudy(nameOrId: string): StudySummary | null;
  planImport(
    req: ImportRequest,
    onProgress?: (done: number, total: number) => void,
  ): Promise<Result<ImportPlan, ServiceProblem>>;
  commitImport(
    plan: ImportPlan,
    opts?: { insistOnDuplicates?: readonly string[]; label?: string },
  ): Promise<CommitResult>;
  createAccounts(
    studyId: number,
    codes?: readonly string[],
  ): Promise<Result<AccountCreationReport, ServiceProblem>>;
  /** Reads usage and says what starting the batch would cost; nothing is sent. */
  checkBatchCredits(batchId: number): Promise<Result<CreditCheckView, ServiceProblem>>;
  startBatch(batchId: number): Promise<Result<BatchProgress, ServiceProblem>>;
  pauseBatch(batchId: number): boolean;
  resumeBatch(batchId: number): boolean;
  cancelBatch(batchId: number): boolean;
  batches(studyId: number): BatchProgress[];
  uncertainUploads(studyId: number): UncertainUpload[];
  resolveUncertain(
    recordingId: number,
    decision: 'queue_again' | 'cancel' | 'mark_uploaded_elsewhere',
  ): boolean;
  insistOnDuplicate(recordingId: number): boolean;
  readUsage(profileId: number): Promise<Result<Usage, ServiceProblem>>;
  pauseSending(profileId: number, reason?: string): void;
  resumeSending(profileId: number): void;
  /** The researcher's tuning of the poller and the queue, within the spec's limits; persisted. */
  settings(): { poll: PollSettings; queue: QueueSettings };
  /** Saves new tuning (clamped to the spec); running queues pick it up when they next start. */
  saveSettings(s: { poll?: Partial<PollSettings>; queue?: Partial<QueueSettings> }): {
    poll: PollSettings;
    queue: QueueSettings;
  };
  /** Restarts the running queues (after new settings); requests in flight settle first. */
  restartEngine(): Promise<void>;
  /** Starts a queue runner for every profile whose key can be read. */
  startEngine(): void;
  runnerFor(profileId: number): QueueRunner | null;
  /** Something changed in the database (files queued by hand): every queue looks now. */
  wake(): void;
  close(): Promise<void>;
}

export const openStudyService = (o: StudyServiceOptions): StudyService => {
  const workspace = openWorkspace(o.workspaceDir);
  const { db } = openStudyDb(workspace.dbPath);
  const keys: KeyStore = createKeyStore({
    keysDir: workspace.keysDir,
    ...(o.env ? { env: o.env } : {}),
    ...(o.vault ? { vault: o.vault } : {}),
  });
  const now = o.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const clients = new Map<number, ApiClient>();
  const runners = new Map<number, QueueRunner>();
  const emit = o.onEvent ?? (() => {});

  const profileRow = (id: number) =>
    db.prepare(`SELECT * FROM service_profiles WHERE id = ?`).get(id) as ProfileRow | undefined;
  const clientFor = (profileId: number): Result<ApiClient, ServiceProblem> => {
    const cached = clients.get(profileId);
    if (cached) return ok(cached);
    const p = profileRow(profileId);
    if (!p)
      return err(problem('This service profile does not exist.', 'Choose another profile or create one.'));
    const key = keys.load(p.key_ref);
    if (!key.ok) return err(problem(key.error, 'Open the profile and enter its API key.'));
    const c = createApiClient({
      ...o.client,
      profile: { baseUrl: p.base_url, version: p.api_version, apiKey: key.value },
      now,
    });
    clients.set(profileId, c);
    return ok(c);
  };
  const studyProfile = (studyId: number) =>
    (
      db.prepare(`SELECT profile_id FROM studies WHERE id = ?`).get(studyId) as
        { profile_id: number | null } | undefined
    )?.profile_id ?? null;
  const batchStudy = (batchId: number) =>
    (db.prepare(`SELECT study_id FROM batches WHERE id = ?`).get(batchId) as { study_id: number } | undefined)
      ?.study_id ?? null;
  const wakeAll = () => {
    for (const r of runners.values()) r.wake();
  };
  /** Stores a key; a key store that refuses (the desktop app on Linux without a keyring) says why in the researcher's words. */
  const storeKey = (profileId: number, key: string): Result<string, ServiceProblem> => {
    try {
      return ok(keys.save(profileId, key));
    } catch (e) {
      const action = (e as { action?: unknown }).action;
      return err(
        problem(
          e instanceof Error ? e.message : 'The API key could not be stored.',
          typeof action === 'string'
            ? action
            : 'Check where Voicescope keeps API keys (Settings), then try again.',
        ),
      );
    }
  };
  /** Key changes go to the audit log: which profile, what happened, where the key is kept; never the key. */
  const auditKey = (
    profileId: number,
    kind: 'key_added' | 'key_replaced' | 'key_removed',
    ref: string | null,
  ) =>
    appendAudit(db, {
      at: iso(),
      kind,
      profileId,
      subject: profileRow(profileId)?.name ?? null,
      detail: { storage: ref === null ? null : ref.split(':')[0]! },
    });
  /** Drops the profile's client and stops its runner (requests in flight settle first), so the next use reads the profile again. */
  const forgetProfile = async (profileId: number) => {
    clients.delete(profileId);
    const r = runners.get(profileId);
    runners.delete(profileId);
    if (r) await r.stop();
  };

  const studySummary = (id: number): StudySummary | null => {
    const r = db
      .prepare(
        `SELECT s.id, s.name, s.profile_id, s.created_at,
              (SELECT count(*) FROM participants p WHERE p.study_id = s.id) AS participants,
              (SELECT count(*) FROM recordings r WHERE r.study_id = s.id) AS recordings
       FROM studies s WHERE s.id = ?`,
      )
      .get(id) as
      | {
          id: number;
          name: string;
          profile_id: number | null;
          created_at: string;
          participants: number;
          recordings: number;
        }
      | undefined;
    return r
      ? {
          id: r.id,
          name: r.name,
          profileId: r.profile_id,
          participants: r.participants,
          recordings: r.recordings,
          createdAt: r.created_at,
        }
      : null;
  };

  const saved = <T>(key: string): Partial<T> => readSetting<Partial<T>>(db, key) ?? {};
  const currentSettings = () => {
    const poll = clampPollSettings({ ...saved<PollSettings>('poll'), ...o.poll });
    const q = { ...DEFAULT_QUEUE, ...saved<QueueSettings>('queue'), ...o.queue };
    return {
      poll,
      queue: {
        uploadConcurrency: Math.max(1, Math.min(8, Math.floor(q.uploadConcurrency))),
        uploadsPerMinute: Math.max(1, Math.min(600, q.uploadsPerMinute)),
      },
    };
  };

  const ensureRunner = (profileId: number): QueueRunner | null => {
    const existing = runners.get(profileId);
    if (existing) return existing;
    const c = clientFor(profileId);
    if (!c.ok) return null;
    const tuned = currentSettings();
    const r = createQueueRunner({
      db,
      client: c.value,
      profileId,
      now,
      onEvent: emit,
      poll: tuned.poll,
      queue: tuned.queue,
      ...(o.random ? { random: o.random } : {}),
      ...(o.idleRecheckMs !== undefined ? { idleRecheckMs: o.idleRecheckMs } : {}),
    });
    runners.set(profileId, r);
    r.start();
    return r;
  };

  const service: StudyService = {
    db,
    workspace,
    createProfile(p) {
      const name = p.name.trim();
      if (!name)
        return err(problem('The profile needs a name.', 'Give it a name such as "Lab account (v1.3)".'));
      let url: URL;
      try {
        url = new URL(p.baseUrl);
      } catch {
        return err(
          problem(
            `"${p.baseUrl}" is not a web address.`,
            'Enter the service address, e.g. https://api.example.org.',
          ),
        );
      }
      if (
        url.protocol !== 'https:' &&
        !(url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
      ) {
        return err(
          problem(
            'The service address must use https (plain http is allowed only for a sandbox on this computer).',
            'Use the https:// address your service administrator gave you.',
          ),
        );
      }
      if (db.prepare(`SELECT 1 FROM service_profiles WHERE name = ?`).get(name))
        return err(problem(`A profile named "${name}" already exists.`, 'Choose another name.'));
      const id = Number(
        db
          .prepare(
            `INSERT INTO service_profiles (name, base_url, api_version, is_sandbox, created_at) VALUES (?, ?, ?, ?, ?)`,
          )
          .run(name, url.origin + url.pathname.replace(/\/+$/, ''), p.apiVersion, p.isSandbox ? 1 : 0, iso())
          .lastInsertRowid,
      );
      const stored = p.keyEnv ? ok(`env:${p.keyEnv}`) : p.apiKey ? storeKey(id, p.apiKey) : ok(null);
      if (!stored.ok) {
        db.prepare(`DELETE FROM service_profiles WHERE id = ?`).run(id);
        return stored;
      }
      const ref = stored.value;
      db.prepare(`UPDATE service_profiles SET key_ref = ? WHERE id = ?`).run(ref, id);
      if (ref !== null) auditKey(id, 'key_added', ref);
      return ok(toProfile(profileRow(id)!));
    },
    listProfiles: () =>
      (db.prepare(`SELECT * FROM service_profiles ORDER BY id`).all() as ProfileRow[]).map(toProfile),
    async setProfileKey(profileId, apiKey) {
      const p = profileRow(profileId);
      if (!p) return err(problem('This service profile does not exist.', 'Reload the list of profiles.'));
      const hadRunner = runners.has(profileId);
      await forgetProfile(profileId);
      const stored = apiKey === null ? ok(null) : storeKey(profileId, apiKey);
      if (!stored.ok) {
        if (hadRunner) ensureRunner(profileId);
        return stored;
      }
      const ref = stored.value;
      // The old key goes after the new one is stored (same place: the new one has overwritten it already).
      if (p.key_ref !== null && p.key_ref !== ref) keys.remove(p.key_ref);
      db.prepare(`UPDATE service_profiles SET key_ref = ? WHERE id = ?`).run(ref, profileId);
      if (ref !== null || p.key_ref !== null)
        auditKey(
          profileId,
          ref === null ? 'key_removed' : p.key_ref === null ? 'key_added' : 'key_replaced',
          ref ?? p.key_ref,
        );
      if (hadRunner && ref !== null) ensureRunner(profileId);
      return ok(toProfile(profileRow(profileId)!));
    },
    async setProfileAddress(profileId, baseUrl) {
      if (!profileRow(profileId))
        return err(problem('This service profile does not exist.', 'Reload the list of profiles.'));
      const hadRunner = runners.has(profileId);
      await forgetProfile(profileId);
      db.prepare(`UPDATE service_profiles SET base_url = ? WHERE id = ?`).run(
        baseUrl.replace(/\/+$/, ''),
        profileId,
      );
      if (hadRunner) ensureRunner(profileId);
      return ok(toProfile(profileRow(profileId)!));
    },
    async pingProfile(profileId) {
      const c = clientFor(profileId);
      if (!c.ok) return c;
      const ping = await c.value.ping();
      return ping.ok ? ok(ping.value) : err(fromApi(ping.error));
    },
    async testProfile(profileId) {
      const c = clientFor(profileId);
      if (!c.ok) return c;
      const ping = await c.value.ping();
      if (!ping.ok) return err(fromApi(ping.error));
      return service.readUsage(profileId);
    },
    createStudy(p) {
      const name = p.name.trim();
      if (!name) return err(problem('The study needs a name.', 'Enter a name.'));
      if (!profileRow(p.profileId))
        return err(problem('That service profile does not exist.', 'Create a service profile first.'));
      if (db.prepare(`SELECT 1 FROM studies WHERE name = ?`).get(name))
        return err(problem(`A study named "${name}" already exists.`, 'Choose another name.'));
      const id = Number(
        db
          .prepare(`INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, ?)`)
          .run(name, p.profileId, iso()).lastInsertRowid,
      );
      return ok(studySummary(id)!);
    },
    listStudies: () =>
      (
        db.prepare(`SELECT id FROM studies WHERE archived_at IS NULL ORDER BY name`).all() as { id: number }[]
      ).map((r) => studySummary(r.id)!),
    findStudy(nameOrId) {
      const r = db
        .prepare(`SELECT id FROM studies WHERE name = ? OR CAST(id AS TEXT) = ?`)
        .get(nameOrId, nameOrId) as { id: number } | undefined;
      return r ? studySummary(r.id) : null;
    },
    async planImport(req, onProgress) {
      const profileId = studyProfile(req.studyId);
      if (profileId === null)
        return err(
          problem('This study has no service profile.', 'Choose the service profile for the study first.'),
        );
      const version = profileRow(profileId)!.api_version;
      const allowed = analysisTypesFor(version);
      const bad = req.analyses.filter((a) => !allowed.includes(a));
      if (req.analyses.length === 0)
        return err(
          problem('No analysis type is selected.', `Choose at least one of: ${allowed.join(', ')}.`),
        );
      if (bad.length)
        return err(
          problem(
            `API ${version} does not offer ${bad.join(', ')}.`,
            `Choose among ${allowed.join(', ')}, or use a v1.3 profile.`,
          ),
        );
      if (req.isolateOldestSpeaker && version !== 'v1.3')
        return err(
          problem(
            '"Isolate oldest speaker" exists only in API v1.3.',
            'Switch it off, or use a v1.3 profile.',
          ),
        );
      if (req.paths.length === 0 && !req.manifestPath)
        return err(problem('Nothing to import.', 'Choose files, a folder or a manifest.'));
      try {
        return ok(await planImport(db, req, { ...(onProgress ? { onProgress } : {}) }));
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        return err(
          problem(
            `The files could not be read: ${msg}`,
            'Check that the folder exists and that you may read it.',
          ),
        );
      }
    },
    async commitImport(plan, opts = {}) {
      const res = await commitImport(db, plan, {
        ...opts,
        convertedDir: workspace.convertedDir(plan.request.studyId),
        now,
      });
      wakeAll();
      return res;
    },
    async createAccounts(studyId, codes) {
      const profileId = studyProfile(studyId);
      if (profileId === null)
        return err(problem('This study has no service profile.', 'Choose a profile for the study.'));
      const c = clientFor(profileId);
      if (!c.ok) return c;
      const report = await createMissingAccounts(db, c.value, studyId, { now, ...(codes ? { codes } : {}) });
      wakeAll();
      return ok(report);
    },
    async checkBatchCredits(batchId) {
      const studyId = batchStudy(batchId);
      if (studyId === null) return err(problem('This batch does not exist.', 'Reload the list of batches.'));
      const usage = await service.readUsage(studyProfile(studyId)!);
      if (!usage.ok) return usage;
      const planned = (
        db
          .prepare(
            `SELECT count(*) n FROM recordings WHERE batch_id = ? AND upload_state IN ('queued', 'pending')`,
          )
          .get(batchId) as { n: number }
      ).n;
      return ok(checkCredits(usage.value, planned));
    },
    async startBatch(batchId) {
      const studyId = batchStudy(batchId);
      if (studyId === null) return err(problem('This batch does not exist.', 'Reload the list of batches.'));
      const profileId = studyProfile(studyId)!;
      const usage = latestUsage(db, profileId)?.usage;
      if (!moveBatch(db, batchId, 'start', iso(), usage ? { usageBefore: usage } : {})) {
        return err(
          problem(
            'This batch cannot be started now (it is already running, finished or cancelled).',
            'Look at its state in the batch list.',
          ),
        );
      }
      const r = ensureRunner(profileId);
      if (!r)
        return err(
          problem(
            "The API key of this study's profile cannot be read, so nothing can be sent.",
            'Open the profile and enter its API key.',
          ),
        );
      r.wake();
      return ok(batchProgress(db, batchId)!);
    },
    pauseBatch: (id) => moveBatch(db, id, 'pause', iso()),
    resumeBatch(id) {
      const moved = moveBatch(db, id, 'resume', iso());
      wakeAll();
      return moved;
    },
    cancelBatch(id) {
      const moved = moveBatch(db, id, 'cancel', iso());
      wakeAll();
      return moved;
    },
    batches: (studyId) => batchesOfStudy(db, studyId),
    uncertainUploads(studyId) {
      const rows = db
        .prepare(
          `SELECT r.id, r.source_path, p.code, r.upload_error FROM recordings r JOIN participants p ON p.id = r.participant_id
         WHERE r.study_id = ? AND r.upload_state = 'upload_uncertain' ORDER BY r.id`,
        )
        .all(studyId) as { id: number; source_path: string; code: string; upload_error: string | null }[];
      return rows.map((r) => {
        const d = (r.upload_error ? JSON.parse(r.upload_error) : {}) as {
          reason?: string;
          error?: ApiError | null;
          usageBefore?: Usage | null;
          usageAfter?: Usage | null;
        };
        return {
          recordingId: r.id,
          path: r.source_path,
          participantCode: r.code,
          reason: d.reason ?? 'The outcome of this upload is unknown.',
          error: d.error ?? null,
          usageBefore: d.usageBefore ?? null,
          usageAfter: d.usageAfter ?? null,
        };
      });
    },
    resolveUncertain(recordingId, decision) {
      const at = iso();
      const done = resolveUncertainRow(db, recordingId, decision);
      if (done) {
        appendEvent(db, at, 'uncertain_resolved', { recordingId }, { decision });
        reopenBatchesOf(db, [recordingId], at);
      }
      wakeAll();
      return done;
    },
    insistOnDuplicate(recordingId) {
      const changed = db
        .transaction(() => {
          const r = db
            .prepare(
              `SELECT r.study_id, p.account_id FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE r.id = ? AND r.upload_state = 'duplicate'`,
            )
            .get(recordingId) as { study_id: number; account_id: string | null } | undefined;
          if (!r) return false;
          db.prepare(`UPDATE recordings SET upload_state = ?, duplicate_override = 1 WHERE id = ?`).run(
            r.account_id ? 'queued' : 'pending',
            recordingId,
          );
          appendEvent(db, iso(), 'duplicate_insisted', { studyId: r.study_id, recordingId });
          reopenBatchesOf(db, [recordingId], iso());
          return true;
        })
        .immediate();
      wakeAll();
      return changed;
    },
    async readUsage(profileId) {
      const c = clientFor(profileId);
      if (!c.ok) return c;
      const res = await c.value.getUsage();
      if (!res.ok) return err(fromApi(res.error));
      recordUsage(db, profileId, iso(), res.value);
      emit({ type: 'usage', profileId, usage: res.value });
      return ok(res.value);
    },
    pauseSending(profileId, reason) {
      ensureRunner(profileId)?.pause(reason);
    },
    resumeSending(profileId) {
      ensureRunner(profileId)?.resume();
    },
    settings: currentSettings,
    saveSettings(next) {
      if (next.poll)
        writeSetting(db, 'poll', clampPollSettings({ ...saved<PollSettings>('poll'), ...next.poll }));
      if (next.queue) writeSetting(db, 'queue', { ...saved<QueueSettings>('queue'), ...next.queue });
      return currentSettings();
    },
    async restartEngine() {
      const ids = [...runners.keys()];
      for (const id of ids) await forgetProfile(id);
      for (const id of ids) ensureRunner(id);
    },
    startEngine() {
      for (const p of service.listProfiles()) ensureRunner(p.id);
    },
    runnerFor: (profileId) => runners.get(profileId) ?? null,
    wake: wakeAll,
    async close() {
      await Promise.all([...runners.values()].map((r) => r.stop()));
      runners.clear();
      db.close();
    },
  };
  return service;
};
