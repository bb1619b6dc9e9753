/** Everything about one recording, for its detail screen: file, verdict, service facts, analyses, values, its event log. */
import { basename } from 'node:path';
import type { AnalysisType } from '../../../shared/api/vocabulary';
import type { StoredUploadError } from '../../../shared/recording-problems';
import type { AnalysisState, VerdictView } from '../../../shared/study';
import type { Queryable } from '../store/types';
import {
  answersAsReceived,
  flagsOfRecording,
  type AnswerAsReceived,
  type StoredFlag,
} from './data-quality.repo';
import {
  ANALYSIS_ORDER,
  recordingSelect,
  toView,
  type RecordingView,
  type Row,
} from './recordings-view.repo';
import { recordingUploadError, recordingVerdict } from './recording-columns';

export interface RecordingFacts {
  readonly view: RecordingView;
  readonly studyId: number;
  readonly sourcePath: string;
  readonly uploadPath: string | null;
  readonly contentSha256: string;
  readonly local: {
    format: string | null;
    channels: number | null;
    sampleRateHz: number | null;
    bitRateBps: number | null;
    sizeBytes: number;
    durationSeconds: number | null;
    speechEstimateSeconds: number | null;
  };
  readonly verdict: VerdictView | null;
  readonly service: {
    recordingId: string;
    uploadedAt: string | null;
    format: string | null;
    sizeBytes: number | null;
    sampleRateHz: number | null;
    bitRateBps: number | null;
    durationSeconds: number | null;
    speechSeconds: number | null;
  } | null;
  readonly isolateOldestSpeaker: boolean;
  readonly uploadAttempts: number;
  readonly uploadError: StoredUploadError | null;
  readonly duplicateOf: { recordingId: number; fileName: string } | null;
  readonly analyses: {
    type: AnalysisType;
    state: AnalysisState;
    requestedAt: string;
    finishedAt: string | null;
    polls: number;
    lastPolledAt: string | null;
    nextPollAt: string | null;
  }[];
  readonly values: Record<string, number | string>;
  /** What the service sent that departs from the specification (kept as received), receipt first. */
  readonly flags: StoredFlag[];
  /** Each analysis object as last received; `listed: false`: reported by the service, not described by the specification. */
  readonly answers: Omit<AnswerAsReceived, 'recordingId'>[];
  readonly events: { at: string; kind: string; detail: string }[];
}

export const recordingFacts = async (q: Queryable, recordingId: number): Promise<RecordingFacts | null> => {
  const row = await q.get<Row>(`${recordingSelect(q.dialect)} WHERE r.id = ?`, [recordingId]);
  if (!row) return null;
  const r = (await q.get<Record<string, unknown>>(
    `SELECT r.*, b.isolate_oldest_speaker AS isolate, d.source_path AS dup_path FROM recordings r
                      LEFT JOIN batches b ON b.id = r.batch_id LEFT JOIN recordings d ON d.id = r.duplicate_of WHERE r.id = ?`,
    [recordingId],
  ))!;
  const n = (k: string) => (r[k] ?? null) as number | null;
  const s = (k: string) => (r[k] ?? null) as string | null;
  const values: Record<string, number | string> = {};
  for (const v of await q.all<{ measure_key: string; value_num: number | null; value_text: string | null }>(
    `SELECT measure_key, value_num, value_text FROM measure_values WHERE recording_id = ?`,
    [recordingId],
  )) {
    values[v.measure_key] = v.value_num ?? v.value_text!;
  }
  const analyses = (
    await q.all<{
      type: AnalysisType;
      state: AnalysisState;
      requested_at: string;
      finished_at: string | null;
      polls: number;
      last_polled_at: string | null;
      next_poll_at: string | null;
    }>(
      `SELECT type, state, requested_at, finished_at, polls, last_polled_at, next_poll_at FROM analyses WHERE recording_id = ?`,
      [recordingId],
    )
  )
    .sort((a, b) => ANALYSIS_ORDER.indexOf(a.type) - ANALYSIS_ORDER.indexOf(b.type))
    .map((a) => ({
      type: a.type,
      state: a.state,
      requestedAt: a.requested_at,
      finishedAt: a.finished_at,
      polls: a.polls,
      lastPolledAt: a.last_polled_at,
      nextPollAt: a.next_poll_at,
    }));
  const events = await q.all<{ at: string; kind: string; detail: string }>(
    `SELECT at, kind, detail FROM event_log WHERE recording_id = ? ORDER BY id`,
    [recordingId],
  );
  return {
    view: toView(row),
    studyId: r['study_id'] as number,
    sourcePath: r['source_path'] as string,
    uploadPath: s('upload_path'),
    contentSha256: r['content_sha256'] as string,
    local: {
      format: s('format'),
      channels: n('channels'),
      sampleRateHz: n('sample_rate_hz'),
      bitRateBps: n('bit_rate_bps'),
      sizeBytes: r['size_bytes'] as number,
      durationSeconds: n('duration_seconds'),
      speechEstimateSeconds: n('speech_estimate_seconds'),
    },
    verdict: recordingVerdict.decodeOrNull(s('verdict')),
    service: s('recording_id')
      ? {
          recordingId: s('recording_id')!,
          uploadedAt: s('uploaded_at'),
          format: s('svc_format'),
          sizeBytes: n('svc_size_bytes'),
          sampleRateHz: n('svc_sample_rate_hz'),
          bitRateBps: n('svc_bit_rate_bps'),
          durationSeconds: n('svc_duration_seconds'),
          speechSeconds: n('svc_speech_seconds'),
        }
      : null,
    isolateOldestSpeaker: r['isolate'] === 1,
    uploadAttempts: r['upload_attempts'] as number,
    uploadError: recordingUploadError.decodeOrNull(s('upload_error')),
    duplicateOf:
      n('duplicate_of') !== null
        ? { recordingId: n('duplicate_of')!, fileName: basename(s('dup_path') ?? '') }
        : null,
    analyses,
    values,
    flags: await flagsOfRecording(q, recordingId),
    answers: (await answersAsReceived(q, [recordingId])).map(({ recordingId: _, ...a }) => a),
    events,
  };
};
