/** Exports: what a study offers for export, which participant codes it does not know, and the export itself. */
import { mkdirSync } from 'node:fs';
import type { ApiVersion, AnalysisType } from '../../shared/api/vocabulary';
import type { ExportProblem, ExportReport } from '../../shared/export';
import type { Result } from '../../shared/result';
import { exportFacts, exportStudyRow } from '../db/repos/export-options.repo';
import { participantCodesOfStudy } from '../db/repos/participants.repo';
import { runExport, type RunExportOptions } from '../export/run-export';
import { exportsDirOf } from '../workspace/workspace';
import type { ServiceContext } from './service-context';

export interface ExportOffer {
  readonly participants: number;
  /** Session labels in order, at most 501 (more than 500 means the list was cut). */
  readonly sessions: readonly string[];
  readonly firstRecordedAt: string | null;
  readonly lastRecordedAt: string | null;
  readonly apiVersions: readonly ApiVersion[];
  readonly analyses: ReadonlySet<AnalysisType>;
  readonly uploadedRecordings: number;
  /** Some results are simulated: from the sandbox, or the study's profile is a sandbox or one of `builtinProfiles`. */
  readonly simulated: boolean;
}

export interface ExportsService {
  /** What the study holds for export; null when there is no such study. */
  exportOffer(studyId: number, builtinProfiles: readonly number[]): Promise<ExportOffer | null>;
  /** The codes among `codes` that are not participants of the study. */
  unknownCodes(studyId: number, codes: readonly string[]): Promise<string[]>;
  runExport(request: unknown, o: RunExportOptions): Promise<Result<ExportReport, ExportProblem>>;
  /** The workspace's exports folder (where browser mode writes), made when missing. */
  workspaceExportsFolder(): string;
}

export const exportsService = (ctx: ServiceContext): ExportsService => {
  return {
    async exportOffer(studyId, builtinProfiles) {
      const study = await exportStudyRow(ctx.store, studyId);
      if (!study) return null;
      const f = await exportFacts(ctx.store, studyId);
      return {
        participants: f.participants,
        sessions: f.sessions,
        firstRecordedAt: f.firstRecordedAt,
        lastRecordedAt: f.lastRecordedAt,
        apiVersions: f.apiVersions,
        analyses: f.analyses,
        uploadedRecordings: f.uploadedRecordings,
        simulated:
          f.hasSimulatedResults ||
          study.is_sandbox === 1 ||
          (study.profile_id !== null && builtinProfiles.includes(study.profile_id)),
      };
    },
    async unknownCodes(studyId, codes) {
      const known = new Set(await participantCodesOfStudy(ctx.store, studyId));
      return [...new Set(codes)].filter((c) => !known.has(c));
    },
    runExport: (request, o) => runExport(ctx, request, o),
    workspaceExportsFolder() {
      const dir = exportsDirOf(ctx.workspace.dir);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    },
  };
};
