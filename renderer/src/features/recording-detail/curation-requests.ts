/**
 * The recording page's curation rules, apart from the panel: which acts a recording offers in its
 * state, and the requests the panel's dialogs send.
 */
import type { Input } from '../../../../shared/contract';
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import { UPLOAD_STATES_NEVER_SENT, UPLOAD_STATES_SENT } from '../../../../shared/states';

const NEVER_SENT = new Set<string>(UPLOAD_STATES_NEVER_SENT);
const SENT = new Set<string>(UPLOAD_STATES_SENT);

export type CurationStep = 'exclude' | 'restore' | 'reassign' | 'delete' | 'send';

type UploadState = RecordingDetail['row']['uploadState'];

/** A recording the service has (or had): moving it does not move it there. */
export const wasSent = (state: UploadState, atService: boolean): boolean => SENT.has(state) || atService;

/**
 * The acts the page offers: exclude or restore (whichever applies), reassign (not while uploading),
 * send anyway (a locally refused file), delete (only what never reached the service).
 */
export const curationOffers = (state: UploadState, atService: boolean, excluded: boolean) => ({
  exclusion: excluded ? ('restore' as const) : ('exclude' as const),
  reassign: state !== 'uploading',
  sendAnyway: state === 'refused_locally',
  delete: NEVER_SENT.has(state) && !atService,
});

/** An optional reason goes with the request only when something was typed. */
export const optionalReason = (reason: string): { reason?: string } => (reason.trim() ? { reason } : {});

/** Only what changes: the participant when another one was named, the session when it was edited (empty: none). */
export const reassignRequest = (
  row: Pick<RecordingDetail['row'], 'id' | 'participantId' | 'session'>,
  to: { participantId: number; session: string; reason: string },
): Input<'curation.reassignRecording'> => {
  const s = to.session.trim();
  return {
    recordingId: row.id,
    ...(to.participantId !== row.participantId ? { participantId: to.participantId } : {}),
    ...(s !== (row.session ?? '') ? { session: s === '' ? null : s } : {}),
    ...optionalReason(to.reason),
  };
};
