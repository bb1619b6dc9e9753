/**
 * Exports from the window, through the same exporter as the command line (main/export/run-export.ts).
 * The desktop app writes into the folder the researcher chose; browser mode writes into the
 * workspace's exports folder, from which the bridge serves the download. Each run can be cancelled;
 * its progress goes out as events.
 */
import { ANALYSIS_TYPES } from '../../../shared/api/vocabulary';
import type { exportsContract } from '../../../shared/contract/exports.contract';
import { err, ok } from '../../../shared/result';
import { appError, type AppErrorCode } from '../../../shared/rpc';
import type { ExportProblem } from '../../../shared/export';
import { APP_VERSION } from '../../app-version';
import { exportsDirOf } from '../../workspace/workspace';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

const CODE: Record<ExportProblem['code'], AppErrorCode> = {
  invalid_request: 'VALIDATION',
  unknown_study: 'NOT_FOUND',
  empty_selection: 'REFUSED',
  folder_exists: 'CONFLICT',
  folder_unwritable: 'REFUSED',
  disk_full: 'DISK_FULL',
  cancelled: 'CANCELLED',
  failed: 'INTERNAL',
};

export const exportsHandlers = (d: HostDeps): HandlersOf<typeof exportsContract> => {
  const { service } = d;
  const running = new Map<string, AbortController>();
  return {
    async 'exports.options'({ studyId }) {
      const offer = await service.exportOffer(studyId, d.sandbox.profileIds());
      if (!offer) return notFound('study');
      return ok({
        participants: offer.participants,
        sessions: offer.sessions.slice(0, 500),
        sessionsTruncated: offer.sessions.length > 500,
        firstRecordedAt: offer.firstRecordedAt,
        lastRecordedAt: offer.lastRecordedAt,
        apiVersions: [...offer.apiVersions],
        analyses: ANALYSIS_TYPES.filter((t) => offer.analyses.has(t)),
        uploadedRecordings: offer.uploadedRecordings,
        simulated: offer.simulated,
        workspaceExportsDir: exportsDirOf(service.workspace.dir),
      });
    },
    'exports.unknownCodes': async ({ studyId, codes }) =>
      ok({ unknown: await service.unknownCodes(studyId, codes) }),
    async 'exports.run'({ exportId, request, destination }) {
      if (running.has(exportId))
        return err(appError('CONFLICT', 'This export is already running.', 'Wait for it to finish.'));
      const outDir = destination ?? service.workspaceExportsFolder();
      const abort = new AbortController();
      running.set(exportId, abort);
      try {
        const r = await service.runExport(request, {
          outDir,
          appVersion: APP_VERSION,
          now: d.now,
          signal: abort.signal,
          onProgress: (p) => d.bus.publish('exports.progress', { exportId, ...p }),
        });
        if (!r.ok)
          return err(
            appError(CODE[r.error.code], r.error.message, r.error.action, {
              retryable: r.error.code === 'disk_full',
            }),
          );
        return ok(r.value);
      } finally {
        running.delete(exportId);
      }
    },
    'exports.cancel': ({ exportId }) => {
      const a = running.get(exportId);
      a?.abort();
      return ok({ cancelled: a !== undefined });
    },
  };
};
