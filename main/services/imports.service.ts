/**
 * Imports: a plan checked against the study's profile (API version, analysis types), committed as a
 * batch; and the service accounts its new participants need, created when the researcher confirms.
 */
import { analysisTypesFor } from '../../shared/api/vocabulary';
import { err, ok, type Result } from '../../shared/result';
import type { ImportPlan, ImportRequest, PlannedAction } from '../../shared/study';
import { profileById } from '../db/repos/profiles.repo';
import { studyProfileId } from '../db/repos/studies.repo';
import { createMissingAccounts, type AccountCreationReport } from '../engine/accounts';
import { checkCredits, type CreditCheck } from '../engine/credit-check';
import { commitImport, type CommitResult } from '../import/import-commit';
import { planImport } from '../import/import-plan';
import { ReadRefusedError } from '../import/safe-read';
import type { Engine } from './engine.service';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';
import type { UsageService } from './usage.service';

/** What a file or folder that cannot be read fails with; anything else (the study database) is told otherwise. */
const FILE_ERRORS: ReadonlySet<string> = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'EIO']);

export interface ImportsService {
  planImport(
    req: ImportRequest,
    onProgress?: (done: number, total: number) => void,
  ): Promise<Result<ImportPlan, ServiceProblem>>;
  commitImport(
    plan: ImportPlan,
    opts?: {
      insistOnDuplicates?: readonly string[];
      sendBorderline?: readonly string[] | true;
      label?: string;
      /** Import and start: the start intent is written with the import (a crash before the start is recovered). */
      start?: boolean;
      /** The site new participants are put at (StudyService.importSite); the study's default site if none. */
      site?: string;
    },
  ): Promise<CommitResult>;
  createAccounts(
    studyId: number,
    codes?: readonly string[],
  ): Promise<Result<AccountCreationReport, ServiceProblem>>;
  /** Whether the study's credits cover the plan's uploads, from a fresh usage read; null when the study or its profile is gone. */
  creditEstimate(plan: ImportPlan): Promise<Result<CreditCheck, ServiceProblem> | null>;
}

export const importsService = (ctx: ServiceContext, engine: Engine, usage: UsageService): ImportsService => {
  const { workspace, now } = ctx;
  return {
    async planImport(req, onProgress) {
      const profileId = await studyProfileId(ctx.store, req.studyId);
      if (profileId === null)
        return err(
          problem('This study has no service profile.', 'Choose the service profile for the study first.'),
        );
      const version = (await profileById(ctx.store, profileId))!.api_version;
      const allowed = analysisTypesFor(version);
      const bad = req.analyses.filter((a) => !allowed.includes(a));
      if (req.analyses.length === 0)
        return err(
          problem('No analysis type is selected.', `Choose at least one of: ${allowed.join(', ')}.`),
        );
      if (bad.length)
        return err(
          problem(
            `API ${version} does not offer ${bad.join(', ')}.`,
            `Choose among ${allowed.join(', ')}, or use a v1.3 profile.`,
          ),
        );
      if (req.isolateOldestSpeaker && version !== 'v1.3')
        return err(
          problem(
            '"Isolate oldest speaker" exists only in API v1.3.',
            'Switch it off, or use a v1.3 profile.',
          ),
        );
      if (req.paths.length === 0 && !req.manifestPath)
        return err(problem('Nothing to import.', 'Choose files, a folder or a manifest.'));
      try {
        return ok(
          await planImport({ store: ctx.store, dbFile: ctx.workspace.dbPath }, req, {
            ...(onProgress ? { onProgress } : {}),
          }),
        );
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        if (e instanceof ReadRefusedError || FILE_ERRORS.has(String((e as { code?: unknown }).code)))
          return err(
            problem(
              `The files could not be read: ${msg}`,
              'Check that the folder exists and that you may read it.',
            ),
          );
        return err(
          problem(
            `The import could not be prepared: ${msg}`,
            'Nothing was written. Try again; if it happens again, check that the study database can be reached.',
          ),
        );
      }
    },
    async commitImport(plan, opts = {}) {
      // The codes it may add are known to the log before they are written (main/privacy/log-facts.ts).
      ctx.logFacts.noteParticipantCodes(
        plan.files.flatMap((f) => (f.participantCode ? [f.participantCode] : [])),
      );
      const res = await commitImport(ctx, plan, {
        ...opts,
        convertedDir: workspace.convertedDir(plan.request.studyId),
        now,
        workstation: ctx.workstation,
      });
      engine.service.wake();
      return res;
    },
    async createAccounts(studyId, codes) {
      const profileId = await studyProfileId(ctx.store, studyId);
      if (profileId === null)
        return err(problem('This study has no service profile.', 'Choose a profile for the study.'));
      const c = await engine.clientFor(profileId);
      if (!c.ok) return c;
      const report = await createMissingAccounts(ctx.store, c.value, studyId, {
        now,
        ...(codes ? { codes } : {}),
      });
      engine.service.wake();
      return ok(report);
    },
    async creditEstimate(plan) {
      const profileId = await studyProfileId(ctx.store, plan.request.studyId);
      if (profileId === null) return null;
      const read = await usage.readUsage(profileId);
      if (!read.ok) return read;
      const sending: PlannedAction[] = ['upload', 'convert_and_upload'];
      return ok(checkCredits(read.value, plan.files.filter((f) => sending.includes(f.action)).length));
    },
  };
};
