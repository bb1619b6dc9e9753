/**
 * Privacy: diagnostic logging, the audit log, and a study's local data (what it holds, an archive,
 * its deletion). Refusals come back as values in the researcher's words.
 */
import type { Result } from '../../shared/result';
import { auditPage, verifyAuditChain, type AuditChainCheck, type AuditRow } from '../db/repos/audit.repo';
import { archiveStudy, type ArchiveProblem, type ArchiveReport } from '../privacy/archive';
import { readDiagnostic, setDiagnostic, type DiagnosticMode } from '../privacy/diagnostic';
import {
  deleteStudy,
  studyDataSummary,
  type DeleteReport,
  type StudyDataProblem,
  type StudyDataSummary,
} from '../privacy/study-data';
import type { Engine } from './engine.service';
import type { ServiceContext } from './service-context';

export interface PrivacyService {
  diagnosticMode(): Promise<DiagnosticMode>;
  /** Switches diagnostic mode (written to the audit log when it changes); the log follows from its next line. */
  setDiagnosticMode(on: boolean, at: string): Promise<DiagnosticMode>;
  auditPage(offset: number, limit: number): Promise<{ rows: AuditRow[]; total: number }>;
  /** Walks the audit log's hash chain; names the first entry that does not fit. */
  verifyAudit(): Promise<AuditChainCheck>;
  /** What the workspace holds for the study; null when there is no such study. */
  studyDataSummary(studyId: number): Promise<StudyDataSummary | null>;
  /** Archives the study (into the workspace's archives folder unless `outDir` is given), with the engine's tuning. */
  archiveStudy(o: {
    studyId: number;
    outDir?: string;
    appVersion: string;
    now: () => number;
  }): Promise<Result<ArchiveReport, ArchiveProblem>>;
  /** Deletes the study once its name is confirmed; every queue looks again afterwards. */
  deleteStudy(o: {
    studyId: number;
    confirmName: string;
    now: () => number;
  }): Promise<Result<DeleteReport, StudyDataProblem>>;
}

export const privacyService = (ctx: ServiceContext, engine: Engine): PrivacyService => {
  const { store } = ctx;
  const dir = ctx.workspace.dir;
  return {
    diagnosticMode: () => readDiagnostic(store),
    async setDiagnosticMode(on, at) {
      const mode = await setDiagnostic(store, on, at);
      ctx.logFacts.setDiagnostic(mode.on);
      return mode;
    },
    auditPage: (offset, limit) => auditPage(store, offset, limit),
    verifyAudit: () => store.snapshot((q) => verifyAuditChain(q)),
    studyDataSummary: (studyId) => studyDataSummary(store, dir, studyId),
    archiveStudy: async (o) =>
      archiveStudy(store, ctx.backupStudyFile, {
        studyId: o.studyId,
        workspaceDir: dir,
        ...(o.outDir !== undefined ? { outDir: o.outDir } : {}),
        appVersion: o.appVersion,
        engineSettings: await engine.service.settings(),
        now: o.now,
      }),
    async deleteStudy(o) {
      const r = await deleteStudy(ctx.store, { ...o, workspaceDir: dir });
      if (r.ok) engine.service.wake();
      return r;
    },
  };
};
