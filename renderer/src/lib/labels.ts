/** Researcher-facing names of the engine's states and the service's analysis types. */
import type { ParticipantStatus, VisitSource } from '../../../shared/states';
import type { CurationActKind } from '../../../shared/curation';
import type { TeamRole, TeamWork } from '../../../shared/team';
import type { AnalysisState, UploadState } from '../../../shared/study';

import { fmtDateTime } from './format';

export { ANALYSIS_LABEL } from '../../../shared/api/analysis-names';

export type Tone = 'ok' | 'info' | 'warn' | 'bad' | 'muted';

export const UPLOAD_STATE: Record<UploadState, { label: string; tone: Tone }> = {
  pending: { label: 'Waiting for account', tone: 'warn' },
  refused_locally: { label: 'Refused (local check)', tone: 'bad' },
  duplicate: { label: 'Duplicate, held', tone: 'warn' },
  queued: { label: 'Queued', tone: 'info' },
  uploading: { label: 'Uploading', tone: 'info' },
  uploaded: { label: 'Uploaded', tone: 'ok' },
  rejected: { label: 'Refused by service', tone: 'bad' },
  upload_uncertain: { label: 'Outcome unknown', tone: 'bad' },
  cancelled: { label: 'Cancelled', tone: 'muted' },
};

/**
 * A recording's upload state as the researcher reads it: a borderline file not chosen for sending is
 * stored as refused_locally (never sent), but nothing refused it; it is held for their decision (as
 * visits.csv and the completeness screen say).
 */
export const HELD_BORDERLINE = { label: 'Borderline, held', tone: 'warn' } as const satisfies {
  label: string;
  tone: Tone;
};
export const uploadStateOf = (r: {
  readonly uploadState: UploadState;
  readonly verdictStatus: string | null;
}): { label: string; tone: Tone } =>
  r.uploadState === 'refused_locally' && r.verdictStatus === 'borderline'
    ? HELD_BORDERLINE
    : UPLOAD_STATE[r.uploadState];

export const ANALYSIS_STATE: Record<AnalysisState, { label: string; tone: Tone }> = {
  awaiting_upload: { label: 'Awaiting upload', tone: 'muted' },
  processing: { label: 'Processing', tone: 'info' },
  completed: { label: 'Completed', tone: 'ok' },
  error: { label: 'Failed', tone: 'bad' },
  not_requested: { label: 'Not requested', tone: 'muted' },
  timed_out: { label: 'Late (checking)', tone: 'warn' },
  unanswered: { label: 'No answer', tone: 'bad' },
};

export const PARTICIPANT_STATUS: Record<ParticipantStatus, { label: string; tone: Tone }> = {
  enrolled: { label: 'Enrolled', tone: 'info' },
  active: { label: 'Active', tone: 'ok' },
  completed: { label: 'Completed', tone: 'muted' },
  withdrawn: { label: 'Withdrawn', tone: 'warn' },
};

export const VISIT_SOURCE: Record<VisitSource, string> = {
  researcher: 'set by you',
  session: 'session label',
  window: 'date in window',
  none: 'no visit',
};

/** Curation acts (shared/curation.ts) in the researcher's words. */
export const CURATION_ACT: Record<CurationActKind, string> = {
  reassign: 'Reassigned',
  exclude: 'Excluded from analysis',
  restore: 'Restored to analysis',
  delete_unsent: 'Deleted (never sent)',
  send_anyway: 'Sent anyway',
  undo: 'Undid',
  merge: 'Merged into another participant',
  dismiss: 'Dismissed from needs-you',
  status: 'Status changed',
};

/**
 * A service profile's name as shown: its API version and whether it is simulated said once each, where
 * the name does not say them already ("Built-in sandbox v1.3 (simulated)" stays as it is). `simulated`:
 * false where a Simulated badge stands beside the name.
 */
export const serviceName = (p: {
  readonly name: string;
  readonly apiVersion?: string | null | undefined;
  readonly simulated?: boolean;
}): string =>
  `${p.name}${p.apiVersion && !p.name.includes(p.apiVersion) ? ` (API ${p.apiVersion})` : ''}${p.simulated && !/simulated/i.test(p.name) ? ' (simulated)' : ''}`;

/**
 * A curation act in a table of acts: what was done, and for an undo which act it took back and when
 * ("Undid “Excluded from analysis” of 2026-01-06 09:30"), never the acts' internal numbers.
 */
export const curationActText = (
  a: { readonly act: CurationActKind; readonly undoes: number | null },
  acts: readonly { readonly id: number; readonly act: CurationActKind; readonly at: string }[],
): string => {
  if (a.undoes === null) return CURATION_ACT[a.act];
  const undone = acts.find((x) => x.id === a.undoes);
  return undone
    ? `${CURATION_ACT[a.act]} “${CURATION_ACT[undone.act]}” of ${fmtDateTime(undone.at)}`
    : `${CURATION_ACT[a.act]} an earlier step`;
};

export const TEAM_ROLE_LABEL: Record<TeamRole, string> = {
  owner: 'owner',
  coordinator: 'coordinator',
  analyst: 'analyst',
  monitor: 'monitor',
};

/** What each kind of work is, as Settings lists what the member's role may do. */
export const TEAM_WORK_LABEL: Record<TeamWork, string> = {
  import: 'import recordings',
  curate: 'curate recordings and participants',
  export: 'export data',
  verifyAudit: 'check the whole audit log',
  createAccounts: "create participants' service accounts",
  design: "change the study's design",
  profiles: 'change service profiles and keys',
  deleteData: "archive or delete the study's data",
};
