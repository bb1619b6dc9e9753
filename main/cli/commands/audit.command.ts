/**
 * `voicescope audit verify`: walks the audit log's hash chain. Exit 0 when every entry fits; exit 9
 * (EXIT.auditBroken) naming the first entry that does not (its id, kind and time), so a scheduled job
 * or an auditor can check the log without opening the app.
 */
import { auditHoldsText, describeAuditCheck } from '../../privacy/audit-check';
import { EXIT, unknownCommand, type WorkspaceCommand } from '../command';
import { reportProblem } from '../lookup';

export const auditCommand: WorkspaceCommand = {
  name: 'audit',
  help: `  audit verify                              check that the audit log was not altered (exit 9 names the first broken entry)`,
  run: async ({ svc, out, sub }) => {
    if (sub !== 'verify') throw unknownCommand('audit', sub);
    // On a team database only the owner sees every entry, so only the owner can check the chain.
    const refused = svc.refusalForRole('verifyAudit');
    if (refused) return reportProblem(out, refused);
    const v = describeAuditCheck(await svc.verifyAudit());
    if (v.holds) {
      out.say('audit', auditHoldsText(v.entries), { holds: true, entries: v.entries });
      return EXIT.ok;
    }
    out.problem(v.message, v.action, {
      holds: false,
      entries: v.entries,
      firstBroken: v.firstBroken,
      reason: v.reason,
    });
    return EXIT.auditBroken;
  },
};
