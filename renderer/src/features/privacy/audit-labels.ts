/** The audit log's entries in the researcher's words. */
import type { AuditEntryView, AuditKind } from '../../../../shared/contract/audit.contract';
import { fmtBytes, plural } from '../../lib/format';

export const AUDIT_LABEL: Record<AuditKind, string> = {
  key_added: 'API key added',
  key_replaced: 'API key replaced',
  key_removed: 'API key removed',
  key_storage_accepted: 'Weaker key storage accepted (no keyring)',
  export_written: 'Export written',
  study_archived: 'Study archived',
  study_deleted: 'Study deleted',
  diagnostic_on: 'Diagnostic logging switched on',
  diagnostic_off: 'Diagnostic logging switched off',
  participant_status_changed: "Participant's status changed",
  visit_schedule_changed: 'Visit schedule changed',
  visit_assignment_changed: "Recording's visit changed",
  recording_reassigned: 'Recording reassigned',
  recording_excluded: 'Recording excluded from analysis',
  recording_restored: 'Recording restored to analysis',
  recording_deleted: 'Never-sent recording deleted',
  recording_sent_anyway: 'Locally refused recording sent anyway',
  curation_undone: 'Curation act undone',
  participants_merged: 'Participant merged into another',
  needs_you_dismissed: 'Needs-you item dismissed',
};

const STORAGE: Record<string, string> = {
  'safe-storage': "operating system's keychain",
  'key-file': 'key file',
  env: 'environment variable',
};

/** One line of detail: counts and where, never codes (the log holds none). */
export const auditDetail = (e: AuditEntryView): string => {
  const d = e.detail;
  const n = (k: string) => (typeof d[k] === 'number' ? (d[k] as number) : null);
  const parts: string[] = [];
  if (typeof d['storage'] === 'string') parts.push(`kept in the ${STORAGE[d['storage']] ?? d['storage']}`);
  if (n('participants') !== null) parts.push(plural(n('participants')!, 'participant'));
  if (n('recordings') !== null) parts.push(plural(n('recordings')!, 'recording'));
  if (n('rows') !== null) parts.push(plural(n('rows')!, 'row'));
  if (n('files') !== null) parts.push(plural(n('files')!, 'file'));
  if (n('converted_files') !== null)
    parts.push(`${plural(n('converted_files')!, 'converted copy', 'converted copies')} removed`);
  if (n('export_folders') !== null) parts.push(`${plural(n('export_folders')!, 'export folder')} removed`);
  if (n('bytes') !== null) parts.push(fmtBytes(n('bytes')));
  if (d['place'] === 'workspace') parts.push('into the workspace');
  if (d['place'] === 'chosen-folder') parts.push('into a chosen folder');
  if (typeof d['format'] === 'string') parts.push(`format ${d['format']}`);
  if (typeof d['backend'] === 'string') parts.push(`backend ${d['backend']}`);
  if (typeof d['before'] === 'string' && typeof d['after'] === 'string')
    parts.push(`${d['before']} → ${d['after']}`);
  if (n('recording') !== null) parts.push(`recording ${n('recording')}`);
  // The curation act's own number is the log's bookkeeping, not the researcher's: it is not shown.
  if (n('undoes') !== null) parts.push('undoes an earlier curation step');
  if (typeof d['who'] === 'string') parts.push(`by this computer's user “${d['who']}”`);
  return parts.join(' · ');
};
