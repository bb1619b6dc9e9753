/**
 * Privacy: diagnostic logging and where the logs and archives go. A study's local data (summary,
 * archive, delete) is in studies.handlers.ts; the audit log is in audit.handlers.ts.
 */
import type { PrivacySettings, privacyContract } from '../../../shared/contract/privacy.contract';
import { ok } from '../../../shared/result';
import { logsDirOf } from '../../log';
import { archivesDirOf } from '../../workspace/workspace';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const privacyHandlers = (d: HostDeps): HandlersOf<typeof privacyContract> => {
  const { service } = d;
  const dir = service.workspace.dir;
  const settings = (): PrivacySettings => ({
    diagnostic: service.diagnosticMode(),
    logsDir: logsDirOf(dir),
    archivesDir: archivesDirOf(dir),
  });
  return {
    'privacy.settings': () => ok(settings()),
    async 'privacy.setDiagnostic'({ on }) {
      await service.setDiagnosticMode(on, new Date(d.now()).toISOString());
      return ok(settings());
    },
  };
};
