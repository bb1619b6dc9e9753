/**
 * The audit log, a page at a time (exports, key changes, archives, deletions, diagnostic mode), and
 * whether its hash chain holds.
 */
import { ok } from '../../../shared/result';
import { describeAuditCheck } from '../../privacy/audit-check';
import type { HandlersOfPrefix } from '../router';
import type { HostDeps } from './deps';

export const auditHandlers = (d: HostDeps): HandlersOfPrefix<'audit'> => ({
  'audit.list': ({ offset, limit }) => ok(d.service.auditPage(offset, limit)),
  'audit.verify': () => ok(describeAuditCheck(d.service.verifyAudit())),
});
