/**
 * The workstation's procedures as the window calls them: a real app host (study service, router, every
 * handler) on a fresh temporary workspace with a fixed clock, and seeding helpers that write studies,
 * participants, recordings and stored analysis results through the schema and the real results path
 * (storeAnalysis), so each test states exactly the study it reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAppHost, type AppHost } from '../../../main/app-host';
import { storeAnalysis } from '../../../main/db/repos/results.repo';
import type { Db } from '../../../main/db/open';
import type { RecordingAnalysis } from '../../../shared/api/domain';
import type { AnalysisType, ApiVersion } from '../../../shared/api/vocabulary';
import type { CallResult, Input, Method } from '../../../shared/contract';
import type { VerdictView } from '../../../shared/study';

export const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
export const DAY = 86_400_000;
export const daysAgo = (d: number) => new Date(NOW - d * DAY).toISOString();

export interface TestHost {
  readonly host: AppHost;
  readonly db: Db;
  call<M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>>;
  /** The call's value; fails the test with the error otherwise. */
  value<M extends Method>(method: M, input: Input<M>): Promise<Extract<CallResult<M>, { ok: true }>['value']>;
  close(): Promise<void>;
}

export const openTestHost = async (): Promise<TestHost> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-rpc-'));
  const host = await openAppHost({
    workspaceDir: dir, mode: 'browser', keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'test' },
    engine: { now: () => NOW }, log: { error: (m, d) => { throw new Error(`${m} ${JSON.stringify(d)}`); } },
  });
  const call = <M extends Method>(method: M, input: Input<M>) => host.router.handle(method, input, { via: 'direct' }) as Promise<CallResult<M>>;
  return {
    host, db: host.service.db, call,
    async value(method, input) {
      const r = await call(method, input);
      if (!r.ok) throw new Error(`${method} failed: ${JSON.stringify(r.error)}`);
      return r.value;
    },
    async close() {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** A study (interval in days) on a plain profile; returns its id. */
export const seedStudy = (db: Db, name = 'Study', intervalDays = 7): number => {
  const profile = db.prepare(`INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES (?, 'http://127.0.0.1:9', 'v1.3', 'now')`).run(`p-${name}`);
  return Number(db.prepare(`INSERT INTO studies (name, profile_id, created_at, session_interval_days) VALUES (?, ?, 'now', ?)`)
    .run(name, profile.lastInsertRowid, intervalDays).lastInsertRowid);
};

export const seedParticipant = (db: Db, studyId: number, code: string, opts: { accountId?: string; createdAt?: string } = {}): number =>
  Number(db.prepare(`INSERT INTO participants (study_id, code, account_id, created_at) VALUES (?, ?, ?, ?)`)
    .run(studyId, code, opts.accountId ?? null, opts.createdAt ?? daysAgo(100)).lastInsertRowid);

export interface SeedRecording {
  readonly recordedAt: string;
  readonly uploadState?: string;
  readonly analyses?: Partial<Record<AnalysisType, string>>;
  readonly apiVersion?: ApiVersion;
  readonly simulated?: boolean;
  readonly converted?: boolean;
  readonly speechSeconds?: number;
  readonly verdict?: VerdictView;
  readonly session?: string;
  readonly isolate?: boolean;
  readonly fileName?: string;
}

let seq = 0;
/** A recording with its analysis rows (default: uploaded, wellbeing and Parkinson's completed). */
export const seedRecording = (db: Db, studyId: number, participantId: number, r: SeedRecording): number => {
  seq++;
  const batch = Number(db.prepare(`INSERT INTO batches (study_id, created_at, analyses, isolate_oldest_speaker) VALUES (?, 'now', '[]', ?)`).run(studyId, r.isolate ? 1 : 0).lastInsertRowid);
  const uploaded = (r.uploadState ?? 'uploaded') === 'uploaded';
  const id = Number(db.prepare(
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, format, channels, sample_rate_hz, duration_seconds,
       speech_estimate_seconds, converted, recorded_at, recorded_at_source, session_label, upload_state, recording_id, api_version, result_source, uploaded_at,
       svc_speech_seconds, verdict, upload_path, created_at)
     VALUES (?, ?, ?, ?, ?, 48000, 'wav', 1, 16000, 60, ?, ?, ?, 'manifest', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'now')`,
  ).run(studyId, participantId, batch, `/study/${r.fileName ?? `rec-${seq}.wav`}`, `sha-${seq}`, r.speechSeconds ?? 45, r.converted ? 1 : 0, r.recordedAt,
    r.session ?? null, r.uploadState ?? 'uploaded', uploaded ? `svc-${seq}` : null, uploaded ? r.apiVersion ?? 'v1.3' : null,
    uploaded ? (r.simulated === false ? 'service' : 'simulated') : null, uploaded ? r.recordedAt : null, uploaded ? r.speechSeconds ?? 45 : null,
    r.verdict ? JSON.stringify(r.verdict) : null, r.converted ? `/workspace/converted/rec-${seq}.wav` : null).lastInsertRowid);
  const analyses = r.analyses ?? { wellbeing: uploaded ? 'completed' : 'awaiting_upload', parkinsons: uploaded ? 'completed' : 'awaiting_upload' };
  for (const [type, state] of Object.entries(analyses)) {
    // Completed analyses are stored through the real results path below, so they start as processing.
    db.prepare(`INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, ?, ?, 'now')`).run(id, type, state === 'completed' ? 'processing' : state);
  }
  return id;
};

/** Stores a completed result for `type` with the given values (keys from shared/api/measures.ts), as the poller does. */
export const storeValues = (db: Db, recordingId: number, type: AnalysisType, values: Record<string, number | string>, apiVersion: ApiVersion = 'v1.3') =>
  storeAnalysis(db, daysAgo(0), recordingId, {
    apiVersion, recordingId: `svc-${recordingId}`, accountId: 'a', recordedAt: 'x', uploadedAt: null, source: 'simulated',
    audio: { format: 'wav', sizeBytes: 1, sampleRateHz: 16000, bitRateBps: 256000, durationSeconds: 60, speechDurationSeconds: 45 },
    outcomes: [{ type, status: 'completed', values }],
  } satisfies RecordingAnalysis, null);
