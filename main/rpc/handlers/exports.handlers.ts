/**
 * Exports from the window, through the same exporter as the command line (main/export/run-export.ts).
 * The desktop app writes into the folder the researcher chose; browser mode writes into the
 * workspace's exports folder, from which the bridge serves the download. Each run can be cancelled;
 * its progress goes out as events.
 */
import { mkdirSync } from 'node:fs';
import { ANALYSIS_TYPES, type AnalysisType, type ApiVersion } from '../../../shared/api/vocabulary';
import type { exportsContract } from '../../../shared/contract/exports.contract';
import { err, ok } from '../../../shared/result';
import { appError, type AppErrorCode } from '../../../shared/rpc';
import type { ExportProblem } from '../../../shared/export';
import { APP_VERSION } from '../../app-version';
import { runExport } from '../../export/run-export';
import { exportsDir } from '../export-downloads';
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
  const { db } = d.service;
  const running = new Map<string, AbortController>();
  return {
    'exports.options': ({ studyId }) => {
      const study = db
        .prepare(
          `SELECT s.id, sp.is_sandbox, s.profile_id FROM studies s LEFT JOIN service_profiles sp ON sp.id = s.profile_id WHERE s.id = ?`,
        )
        .get(studyId) as { id: number; is_sandbox: number | null; profile_id: number | null } | undefined;
      if (!study) return notFound('study');
      const sessions = (
        db
          .prepare(
            `SELECT DISTINCT session_label AS s FROM recordings WHERE study_id = ? AND session_label IS NOT NULL ORDER BY 1 LIMIT 501`,
          )
          .all(studyId) as { s: string }[]
      ).map((r) => r.s);
      const range = db
        .prepare(
          `SELECT min(recorded_at) AS first, max(recorded_at) AS last, count(*) AS n FROM recordings r WHERE study_id = ? AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id)`,
        )
        .get(studyId) as { first: string | null; last: string | null; n: number };
      const versions = (
        db
          .prepare(
            `SELECT DISTINCT api_version AS v FROM recordings WHERE study_id = ? AND api_version IS NOT NULL ORDER BY 1`,
          )
          .all(studyId) as { v: ApiVersion }[]
      ).map((r) => r.v);
      const types = new Set(
        (
          db
            .prepare(
              `SELECT DISTINCT a.type AS t FROM analyses a JOIN recordings r ON r.id = a.recording_id WHERE r.study_id = ?`,
            )
            .all(studyId) as { t: AnalysisType }[]
        ).map((r) => r.t),
      );
      const simulated =
        db
          .prepare(`SELECT 1 FROM recordings WHERE study_id = ? AND result_source = 'simulated' LIMIT 1`)
          .get(studyId) !== undefined ||
        study.is_sandbox === 1 ||
        (study.profile_id !== null && d.sandbox.profileIds().includes(study.profile_id));
      return ok({
        participants: (
          db.prepare(`SELECT count(*) AS n FROM participants WHERE study_id = ?`).get(studyId) as {
            n: number;
          }
        ).n,
        sessions: sessions.slice(0, 500),
        sessionsTruncated: sessions.length > 500,
        firstRecordedAt: range.first,
        lastRecordedAt: range.last,
        apiVersions: versions,
        analyses: ANALYSIS_TYPES.filter((t) => types.has(t)),
        uploadedRecordings: range.n,
        simulated,
        workspaceExportsDir: exportsDir(d.service.workspace.dir),
      });
    },
    'exports.unknownCodes': ({ studyId, codes }) => {
      const known = new Set(
        (
          db.prepare(`SELECT code FROM participants WHERE study_id = ?`).all(studyId) as { code: string }[]
        ).map((r) => r.code),
      );
      return ok({ unknown: [...new Set(codes)].filter((c) => !known.has(c)) });
    },
    async 'exports.run'({ exportId, request, destination }) {
      if (running.has(exportId))
        return err(appError('CONFLICT', 'This export is already running.', 'Wait for it to finish.'));
      const outDir = destination ?? exportsDir(d.service.workspace.dir);
      if (!destination) mkdirSync(outDir, { recursive: true, mode: 0o700 });
      const abort = new AbortController();
      running.set(exportId, abort);
      try {
        const r = await runExport(db, request, {
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
