/** What the import preview's actions, verdicts and date sources are called on screen. */
import type { PlannedAction, RecordedAtSource, VerdictView } from '../../../../shared/study';
import type { Tone } from '../../lib/labels';

/** The conversion switch: what it converts (main/import/local-verdict.ts decides which files need it). */
export const CONVERT_SWITCH_LABEL =
  'Convert to mono 16 kHz WAV what the service cannot take (stereo, low-rate, FLAC, AIFF, CAF, WebM)';

export const ACTION: Record<PlannedAction, { label: string; tone: Tone; explain: string }> = {
  upload: { label: 'Upload', tone: 'ok', explain: 'Valid as it is; it will be uploaded.' },
  convert_and_upload: {
    label: 'Convert and upload',
    tone: 'info',
    explain: 'A mono 16 kHz copy will be uploaded; the original file is never changed.',
  },
  refused: {
    label: 'Refused',
    tone: 'bad',
    explain: 'The local checks refuse it: it is never sent, and costs nothing.',
  },
  borderline: {
    label: 'Borderline, your decision',
    tone: 'warn',
    explain:
      'About 30 s of speech, too close to the minimum for the local estimate to tell: it is sent only if you choose “send borderline files”; the service then decides (a refusal costs no credit).',
  },
  duplicate: {
    label: 'Duplicate, held',
    tone: 'warn',
    explain:
      'The same audio is already imported for this participant: it is not sent unless you choose “send anyway”.',
  },
  unassigned: {
    label: 'No participant',
    tone: 'warn',
    explain: 'Neither the manifest nor the file-name pattern gives it a participant: it is not imported.',
  },
};

export const ACTION_ORDER: readonly PlannedAction[] = [
  'upload',
  'convert_and_upload',
  'borderline',
  'refused',
  'duplicate',
  'unassigned',
];

export const VERDICT: Record<VerdictView['status'], { label: string; tone: Tone }> = {
  accepted: { label: 'Accepted', tone: 'ok' },
  accepted_with_warnings: { label: 'Accepted, with warnings', tone: 'warn' },
  needs_conversion: { label: 'Needs conversion', tone: 'bad' },
  will_convert: { label: 'Will be converted', tone: 'info' },
  borderline: { label: 'Borderline: you decide', tone: 'warn' },
  refused: { label: 'Refused', tone: 'bad' },
};

export const DATE_SOURCE: Record<RecordedAtSource, string> = {
  manifest: 'manifest',
  filename: 'file name',
  embedded: 'date in the file',
  file_mtime: 'file modified (check it)',
  researcher: 'entered by you',
};

/** The verdicts an action's own badge already says ("Refused" beside "Refused" said it twice). */
const SAID_BY_ACTION: Partial<Record<PlannedAction, VerdictView['status']>> = {
  refused: 'refused',
  borderline: 'borderline',
  convert_and_upload: 'will_convert',
};

/** Whether a file's verdict badge adds to its action's badge (an accepted file's verdict never does). */
export const verdictAddsToAction = (action: PlannedAction, verdict: VerdictView['status']): boolean =>
  verdict !== 'accepted' && action !== 'unassigned' && SAID_BY_ACTION[action] !== verdict;
