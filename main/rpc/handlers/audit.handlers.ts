/**
 * The audit log, a page at a time (exports, key changes, archives, deletions, diagnostic mode), and
 * whether its hash chain holds.
 */
import type { auditContract } from '../../../shared/contract/audit.contract';
import { ok } from '../../../shared/result';
import { describeAuditCheck } from '../../privacy/audit-check';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const auditHandlers = (d: HostDeps): HandlersOf<typeof auditContract> => ({
  'audit.list': async ({ offset, limit }) => ok(await d.service.auditPage(offset, limit)),
  'audit.verify': async () => ok(describeAuditCheck(await d.service.verifyAudit())),
});
