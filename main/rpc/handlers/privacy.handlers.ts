/**
 * Privacy: diagnostic logging, a study's local data (summary, archive, delete) and the audit log.
 * Refusals come back as values in the researcher's words; nothing returned here holds an API key.
 */
import type { PrivacySettings, privacyContract } from '../../../shared/contract/privacy.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import { auditPage } from '../../db/repos/audit.repo';
import { logsDirOf } from '../../log';
import { archivesDirOf, archiveStudy } from '../../privacy/archive';
import { readDiagnostic, setDiagnostic } from '../../privacy/diagnostic';
import { deleteStudy, studyDataSummary } from '../../privacy/study-data';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

export const privacyHandlers = (d: HostDeps): HandlersOf<typeof privacyContract> => {
  const { service } = d;
  const dir = service.workspace.dir;
  const settings = (): PrivacySettings => ({
    diagnostic: readDiagnostic(service.db),
    logsDir: logsDirOf(dir),
    archivesDir: archivesDirOf(dir),
  });
  return {
    'privacy.settings': () => ok(settings()),
    'privacy.setDiagnostic'({ on }) {
      setDiagnostic(service.db, on, new Date(d.now()).toISOString());
      return ok(settings());
    },
    'studies.dataSummary'({ studyId }) {
      const s = studyDataSummary(service.db, dir, studyId);
      return s ? ok(s) : notFound('study');
    },
    async 'studies.archive'({ studyId, outDir }) {
      const r = await archiveStudy(service.db, {
        studyId,
        workspaceDir: dir,
        ...(outDir !== undefined ? { outDir } : {}),
        appVersion: d.info.version,
        engineSettings: service.settings(),
        now: d.now,
      });
      return r.ok ? ok(r.value) : err(appError('REFUSED', r.error.message, r.error.action));
    },
    'studies.delete'({ studyId, confirmName }) {
      const r = deleteStudy(service.db, { studyId, confirmName, workspaceDir: dir, now: d.now });
      if (!r.ok) return err(appError(r.error.code, r.error.message, r.error.action));
      service.wake();
      return ok(r.value);
    },
    'audit.list': ({ offset, limit }) => ok(auditPage(service.db, offset, limit)),
  };
};
