/**
 * The append-only event log: what was sent to and received from the service, without audio, keys or
 * participant codes (only database ids and the service's own ids).
 */
import type { Queryable } from '../store/types';

export type EventKind =
  | 'account_created'
  | 'account_creation_uncertain'
  | 'account_intent'
  | 'account_uncertain'
  | 'account_uncertain_resolved'
  | 'upload_intent'
  | 'upload_accepted'
  | 'upload_rejected'
  | 'upload_uncertain'
  | 'upload_interrupted'
  | 'analysis_polled'
  | 'analysis_final'
  | 'usage_read'
  | 'batch_created'
  | 'batch_started'
  | 'batch_paused'
  | 'batch_resumed'
  | 'batch_cancelled'
  | 'batch_finished'
  | 'queue_paused'
  | 'uncertain_resolved'
  | 'duplicate_insisted'
  | 'account_linked'
  | 'upload_requeued'
  | 'results_recheck'
  | 'analysis_unanswered'
  | 'batch_reopened'
  | 'answer_unreadable';

export interface EventRef {
  readonly studyId?: number | null;
  readonly recordingId?: number | null;
}

const APPEND_EVENT_SQL = `INSERT INTO event_log (at, kind, study_id, recording_id, detail) VALUES (?, ?, ?, ?, ?)`;

const eventParams = (at: string, kind: EventKind, ref: EventRef, detail: Record<string, unknown>) => [
  at,
  kind,
  ref.studyId ?? null,
  ref.recordingId ?? null,
  JSON.stringify(detail),
];

export const appendEvent = async (
  q: Queryable,
  at: string,
  kind: EventKind,
  ref: EventRef,
  detail: Record<string, unknown> = {},
): Promise<void> => {
  await q.run(APPEND_EVENT_SQL, eventParams(at, kind, ref, detail));
};

/**
 * An answer that could not be read at all (not JSON, wrong top-level shape): where it failed and its
 * first few KB, with the key blanked (shared/api/api-error.ts `bodyExcerpt`), so that what the service
 * sent can be looked at later. Nothing is written for errors without an excerpt.
 */
export const appendUnreadableAnswer = async (
  q: Queryable,
  at: string,
  ref: EventRef,
  error: {
    readonly endpoint: string;
    readonly status: number | null;
    readonly path: string | null;
    readonly detail: string | null;
    readonly bodyExcerpt?: string | null | undefined;
  },
): Promise<void> => {
  if (error.bodyExcerpt == null) return;
  await appendEvent(q, at, 'answer_unreadable', ref, {
    endpoint: error.endpoint,
    status: error.status,
    path: error.path,
    detail: error.detail,
    body_excerpt: error.bodyExcerpt,
  });
};
