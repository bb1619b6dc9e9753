/**
 * Missing-data accounting: every expected visit of every participant is either present (a
 * usable recording) or explained by one missing-data reason from shared/missing-data.ts, with a detail
 * (the local refusal's reason, the service's error type, the exclusion's reason...). Pure: the
 * repositories read the facts, visits.csv, completeness.csv and the completeness screen show this.
 */
import type { MissingReason } from './missing-data';
import { MISSING_REASON_NAMES } from './missing-data';
import type { AnalysisState, ParticipantStatus, UploadState } from './states';
import { windowOf, type VisitDef } from './visits';

/** What a recording tells about its visit: a usable result, a reason it has none, or nothing (cancelled). */
export type RecordingOutcome =
  | { readonly usable: true }
  | { readonly usable: false; readonly reason: MissingReason; readonly detail: string | null }
  | null;

export interface OutcomeFacts {
  readonly uploadState: UploadState;
  readonly analyses: readonly AnalysisState[];
  /** The local verdict's status (e.g. 'borderline') when the file was checked. */
  readonly verdictStatus: string | null;
  /** Codes of the local findings that refused the file. */
  readonly refusals: readonly string[];
  /** The service's error type (ApiError kind) or the stored reason of a failed upload. */
  readonly errorType: string | null;
  /** The researcher's reason when the recording was excluded from analysis; null when it is not. */
  readonly excludedReason: string | null;
}

export const outcomeOf = (f: OutcomeFacts): RecordingOutcome => {
  if (f.uploadState === 'cancelled') return null;
  if (f.excludedReason !== null) return { usable: false, reason: 'excluded', detail: f.excludedReason };
  switch (f.uploadState) {
    case 'uploaded': {
      const has = (s: AnalysisState) => f.analyses.includes(s);
      if (has('completed')) return { usable: true };
      if (f.analyses.length === 0 || has('processing') || has('awaiting_upload'))
        return { usable: false, reason: 'in_progress', detail: 'analysis not answered yet' };
      if (has('error')) return { usable: false, reason: 'failed', detail: 'analysis error' };
      if (has('unanswered')) return { usable: false, reason: 'timed_out', detail: 'unanswered' };
      if (has('timed_out')) return { usable: false, reason: 'timed_out', detail: 'timed_out, re-checking' };
      return { usable: false, reason: 'failed', detail: 'no analysis requested' };
    }
    case 'rejected':
      return { usable: false, reason: 'refused_by_service', detail: f.errorType };
    case 'refused_locally':
      return f.verdictStatus === 'borderline'
        ? { usable: false, reason: 'held', detail: 'borderline speech estimate' }
        : {
            usable: false,
            reason: 'refused_locally',
            detail: f.refusals.length ? f.refusals.join(' ') : null,
          };
    case 'duplicate':
      return { usable: false, reason: 'held', detail: 'possible duplicate' };
    case 'upload_uncertain':
      return { usable: false, reason: 'held', detail: 'upload outcome unknown' };
    case 'pending':
      return { usable: false, reason: 'in_progress', detail: 'waiting for a service account' };
    case 'queued':
    case 'uploading':
      return { usable: false, reason: 'in_progress', detail: 'waiting to upload' };
  }
};

/**
 * When a visit has recordings but none usable, the reason shown is the one nearest to a result: what
 * may still come first (in progress, held for a decision), then what failed at the service, then what
 * never left the workstation, then what the researcher excluded.
 */
export const REASON_PRECEDENCE: readonly MissingReason[] = [
  'in_progress',
  'held',
  'timed_out',
  'failed',
  'refused_by_service',
  'refused_locally',
  'excluded',
];

export interface AccountedParticipant {
  readonly id: number;
  readonly code: string;
  readonly status: ParticipantStatus;
  /** The date of the current status (YYYY-MM-DD). */
  readonly statusOn: string | null;
  readonly statusReason: string | null;
  /** Day 0 of the schedule; null when unknown. */
  readonly baseline: string | null;
}

export interface AccountedRecording {
  readonly id: number;
  readonly visitId: number | null;
  /** The recording's date in the study's time zone. */
  readonly date: string;
  readonly outcome: RecordingOutcome;
}

export interface VisitRow {
  readonly participantId: number;
  readonly participant: string;
  readonly visit: VisitDef;
  /** The visit's window for this participant; null without a baseline. */
  readonly windowFrom: string | null;
  readonly windowTo: string | null;
  /** The usable recording the values come from, or the recording the missing reason is about. */
  readonly recording: number | null;
  /** Null when the visit has a usable recording. */
  readonly reason: MissingReason | null;
  readonly detail: string | null;
  /** Recordings assigned to the visit (cancelled ones left out). */
  readonly recordingsInVisit: number;
}

export interface StudyPeriod {
  readonly startDate: string | null;
  readonly endDate: string | null;
}

/**
 * One row per visit of the schedule for this participant, whatever their status. `today` is the
 * workstation's date in the study's time zone: a window that has not closed yet is "not yet due".
 */
export const visitRowsOf = (
  visits: readonly VisitDef[],
  p: AccountedParticipant,
  recordings: readonly AccountedRecording[],
  period: StudyPeriod,
  today: string,
): VisitRow[] =>
  visits.map((v) => {
    const w = p.baseline === null ? null : windowOf(v, p.baseline);
    const base = {
      participantId: p.id,
      participant: p.code,
      visit: v,
      windowFrom: w?.from ?? null,
      windowTo: w?.to ?? null,
    };
    const mine = recordings
      .filter((r) => r.visitId === v.id && r.outcome !== null)
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
    const usable = mine.find((r) => r.outcome?.usable === true);
    if (usable)
      return { ...base, recording: usable.id, reason: null, detail: null, recordingsInVisit: mine.length };
    for (const reason of REASON_PRECEDENCE) {
      const r = mine.find((x) => x.outcome !== null && !x.outcome.usable && x.outcome.reason === reason);
      if (r && r.outcome !== null && !r.outcome.usable)
        return { ...base, recording: r.id, reason, detail: r.outcome.detail, recordingsInVisit: mine.length };
    }
    const none = { ...base, recording: null, recordingsInVisit: 0 };
    if (p.status === 'withdrawn' && (w === null || p.statusOn === null || p.statusOn <= w.to))
      return { ...none, reason: 'withdrawn' as const, detail: p.statusReason };
    if (p.status === 'completed' && w !== null && p.statusOn !== null && p.statusOn < w.from)
      return { ...none, reason: 'not_recorded' as const, detail: `participant completed on ${p.statusOn}` };
    if (w !== null && period.endDate !== null && w.from > period.endDate)
      return {
        ...none,
        reason: 'not_recorded' as const,
        detail: `window opens after the study end (${period.endDate})`,
      };
    const ended = period.endDate !== null && period.endDate < today;
    if (w === null)
      return ended || p.status === 'completed'
        ? { ...none, reason: 'not_recorded' as const, detail: 'no baseline: no recording at all' }
        : { ...none, reason: 'not_yet_due' as const, detail: 'no baseline yet' };
    if (w.to >= today) return { ...none, reason: 'not_yet_due' as const, detail: `window closes ${w.to}` };
    return { ...none, reason: 'not_recorded' as const, detail: null };
  });

/** One visit's line of the completeness table: expected, present, and each reason's count. */
export interface CompletenessLine {
  readonly visit: VisitDef;
  readonly expected: number;
  readonly present: number;
  readonly missing: Readonly<Record<MissingReason, number>>;
}

export const completenessOf = (visits: readonly VisitDef[], rows: readonly VisitRow[]): CompletenessLine[] =>
  visits.map((v) => {
    const missing = Object.fromEntries(MISSING_REASON_NAMES.map((r) => [r, 0])) as Record<
      MissingReason,
      number
    >;
    let expected = 0;
    let present = 0;
    for (const r of rows) {
      if (r.visit.id !== v.id) continue;
      expected++;
      if (r.reason === null) present++;
      else missing[r.reason]++;
    }
    return { visit: v, expected, present, missing };
  });
