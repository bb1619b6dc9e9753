/**
 * Audit identities: each audit entry and each curation act names the member who did it (their
 * database login; null on SQLite, a single-user file) and the workstation it was done on (its host
 * name, main/workstation-name.ts). On PostgreSQL the end of the audit chain is read through a function
 * with its owner's rights (the dialect's `auditChainTail`), so every member extends the one chain.
 */
import type { StoreMigration } from '../../migrate';

export const m0210: StoreMigration = {
  version: 210,
  name: '0210-audit-identities',
  statements: (d) => [
    'ALTER TABLE audit_log ADD COLUMN member TEXT',
    'ALTER TABLE audit_log ADD COLUMN workstation TEXT',
    'ALTER TABLE curation_acts ADD COLUMN member TEXT',
    'ALTER TABLE curation_acts ADD COLUMN workstation TEXT',
    ...d.auditChainTail.setup,
  ],
};
