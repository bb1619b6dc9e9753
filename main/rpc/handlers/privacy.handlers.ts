/**
 * Privacy: diagnostic logging and a study's local data (summary, archive, delete); the audit log is in
 * audit.handlers.ts.
 * Refusals come back as values in the researcher's words; nothing returned here holds an API key.
 */
import type { PrivacySettings, privacyContract } from '../../../shared/contract/privacy.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import { logsDirOf } from '../../log';
import { archivesDirOf } from '../../privacy/archive';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

export const privacyHandlers = (d: HostDeps): HandlersOf<Omit<typeof privacyContract, `audit.${string}`>> => {
  const { service } = d;
  const dir = service.workspace.dir;
  const settings = (): PrivacySettings => ({
    diagnostic: service.diagnosticMode(),
    logsDir: logsDirOf(dir),
    archivesDir: archivesDirOf(dir),
  });
  return {
    'privacy.settings': () => ok(settings()),
    'privacy.setDiagnostic'({ on }) {
      service.setDiagnosticMode(on, new Date(d.now()).toISOString());
      return ok(settings());
    },
    'studies.dataSummary'({ studyId }) {
      const s = service.studyDataSummary(studyId);
      return s ? ok(s) : notFound('study');
    },
    async 'studies.archive'({ studyId, outDir }) {
      const r = await service.archiveStudy({
        studyId,
        ...(outDir !== undefined ? { outDir } : {}),
        appVersion: d.info.version,
        now: d.now,
      });
      return r.ok ? ok(r.value) : err(appError('REFUSED', r.error.message, r.error.action));
    },
    'studies.delete'({ studyId, confirmName }) {
      const r = service.deleteStudy({ studyId, confirmName, now: d.now });
      return r.ok ? ok(r.value) : err(appError(r.error.code, r.error.message, r.error.action));
    },
  };
};
