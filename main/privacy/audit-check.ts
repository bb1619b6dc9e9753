/**
 * The audit log's hash chain, checked and told in the researcher's words: the Privacy page
 * (`audit.verify`) and `voicescope audit verify` say the same thing.
 */
import type { AuditVerification } from '../../shared/contract/audit.contract';
import type { AuditChainCheck } from '../db/repos/audit.repo';

export const describeAuditCheck = (check: AuditChainCheck): AuditVerification => {
  if (check.ok) return { holds: true, entries: check.entries };
  const { id, at, kind } = check.firstBroken;
  const what =
    check.reason === 'changed'
      ? `entry ${id} (${kind}, ${at}) was changed after it was written`
      : `the entry before entry ${id} (${kind}, ${at}) was changed or removed`;
  return {
    holds: false,
    entries: check.entries,
    firstBroken: check.firstBroken,
    reason: check.reason,
    message: `The audit log has been altered: ${what}.`,
    action: `Entries from ${id} on cannot be trusted. Keep a copy of the study database (voicescope.sqlite in the workspace) for whoever looks into it.`,
  };
};

/** One line for a holding chain. */
export const auditHoldsText = (entries: number): string =>
  entries === 0
    ? 'The audit log is empty; there is nothing to check yet.'
    : `The audit log is intact: all ${entries} ${entries === 1 ? 'entry' : 'entries'} fit the chain.`;
