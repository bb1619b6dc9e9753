/**
 * A study written through the schema, so each test states exactly what it reads: studies, participants,
 * recordings with their analysis rows, and completed results stored through the real results path
 * (storeAnalysis), as the poller stores them.
 */
import { storeAnalysis } from '../../../main/db/repos/results.repo';
import type { Queryable } from '../../../main/db/store/types';
import type { RecordingAnalysis } from '../../../shared/api/domain';
import type { AnalysisType, ApiVersion } from '../../../shared/api/vocabulary';
import type { VerdictView } from '../../../shared/study';
import { insertedId } from '../../support/inserted-id';

export const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
export const DAY = 86_400_000;
export const daysAgo = (d: number) => new Date(NOW - d * DAY).toISOString();
/** When seeded rows say they were created: the seeded clock's now. */
const CREATED = new Date(NOW).toISOString();

/** A study (interval in days) on a plain profile; returns its id. */
export const seedStudy = async (q: Queryable, name = 'Study', intervalDays = 7): Promise<number> => {
  const profile = await insertedId(
    q,
    `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES (?, 'http://127.0.0.1:9', 'v1.3', ?)`,
    [`p-${name}`, CREATED],
  );
  return insertedId(
    q,
    `INSERT INTO studies (name, profile_id, created_at, session_interval_days) VALUES (?, ?, ?, ?)`,
    [name, profile, CREATED, intervalDays],
  );
};

export const seedParticipant = (
  q: Queryable,
  studyId: number,
  code: string,
  opts: { accountId?: string; createdAt?: string } = {},
): Promise<number> =>
  insertedId(q, `INSERT INTO participants (study_id, code, account_id, created_at) VALUES (?, ?, ?, ?)`, [
    studyId,
    code,
    opts.accountId ?? null,
    opts.createdAt ?? daysAgo(100),
  ]);

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
export const seedRecording = async (
  q: Queryable,
  studyId: number,
  participantId: number,
  r: SeedRecording,
): Promise<number> => {
  seq++;
  const batch = await insertedId(
    q,
    `INSERT INTO batches (study_id, created_at, analyses, isolate_oldest_speaker) VALUES (?, ?, '[]', ?)`,
    [studyId, CREATED, r.isolate ? 1 : 0],
  );
  const uploaded = (r.uploadState ?? 'uploaded') === 'uploaded';
  const id = await insertedId(
    q,
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, format, channels, sample_rate_hz, duration_seconds,
       speech_estimate_seconds, converted, recorded_at, recorded_at_source, session_label, upload_state, recording_id, api_version, result_source, uploaded_at,
       svc_speech_seconds, verdict, upload_path, created_at)
     VALUES (?, ?, ?, ?, ?, 48000, 'wav', 1, 16000, 60, ?, ?, ?, 'manifest', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      studyId,
      participantId,
      batch,
      `/study/${r.fileName ?? `rec-${seq}.wav`}`,
      `sha-${seq}`,
      r.speechSeconds ?? 45,
      r.converted ? 1 : 0,
      r.recordedAt,
      r.session ?? null,
      r.uploadState ?? 'uploaded',
      uploaded ? `svc-${seq}` : null,
      uploaded ? (r.apiVersion ?? 'v1.3') : null,
      uploaded ? (r.simulated === false ? 'service' : 'simulated') : null,
      uploaded ? r.recordedAt : null,
      uploaded ? (r.speechSeconds ?? 45) : null,
      r.verdict ? JSON.stringify(r.verdict) : null,
      r.converted ? `/workspace/converted/rec-${seq}.wav` : null,
      CREATED,
    ],
  );
  const analyses = r.analyses ?? {
    wellbeing: uploaded ? 'completed' : 'awaiting_upload',
    parkinsons: uploaded ? 'completed' : 'awaiting_upload',
  };
  for (const [type, state] of Object.entries(analyses)) {
    // Completed analyses are stored through the real results path below, so they start as processing.
    await q.run(`INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, ?, ?, ?)`, [
      id,
      type,
      state === 'completed' ? 'processing' : state,
      CREATED,
    ]);
  }
  return id;
};

/** Stores a completed result for `type` with the given values (keys from shared/api/measures.ts), as the poller does. */
export const storeValues = (
  q: Queryable,
  recordingId: number,
  type: AnalysisType,
  values: Record<string, number | string>,
  apiVersion: ApiVersion = 'v1.3',
) =>
  storeAnalysis(
    q,
    daysAgo(0),
    recordingId,
    {
      apiVersion,
      recordingId: `svc-${recordingId}`,
      accountId: 'a',
      recordedAt: 'x',
      uploadedAt: null,
      source: 'simulated',
      audio: {
        format: 'wav',
        sizeBytes: 1,
        sampleRateHz: 16000,
        bitRateBps: 256000,
        durationSeconds: 60,
        speechDurationSeconds: 45,
      },
      outcomes: [{ type, status: 'completed', values }],
    } satisfies RecordingAnalysis,
    null,
  );
