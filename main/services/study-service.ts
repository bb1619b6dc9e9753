/**
 * The study engine as one service: what the command line and the IPC handlers call. It owns the study
 * database, the key store, an API client per profile and a queue runner per profile with a key.
 * Every method returns data or a Result; refusals carry the researcher-facing explanation.
 *
 * It is composed of parts named for what they serve (profiles, studies, imports, batches, recordings,
 * participants, usage, privacy, exports, the engine); each part calls repositories (main/db/repos/),
 * never SQL of its own.
 */
import { iso } from '../../shared/iso';
import type { Result } from '../../shared/result';
import type { EngineEvent } from '../../shared/study';
import { openStudyDb, type Db } from '../db/open';
import { backupDatabase } from '../db/repos/archive.repo';
import { sqliteStore } from '../db/store/sqlite-store';
import { createLogFacts, type LogFacts } from '../privacy/log-facts';
import type { Store } from '../db/store/types';
import { changeSettingsService, type ChangeSettingsService } from './change-settings.service';
import { curationService, type CurationService } from './curation.service';
import { needsYouCurationService, type NeedsYouCurationService } from './needs-you-curation.service';
import { participantCurationService, type ParticipantCurationService } from './participant-curation.service';
import { createEngine, type EngineService } from './engine.service';
import { batchesService, type BatchesService } from './batches.service';
import { cohortService, type CohortService } from './cohort.service';
import { exportsService, type ExportsService } from './exports.service';
import { importsService, type ImportsService } from './imports.service';
import { localMeasuresService, type LocalMeasuresService } from './local-measures.service';
import { createKeyStore, type KeyStore } from '../workspace/key-store';
import { participantsService, type ParticipantsService } from './participants.service';
import { privacyService, type PrivacyService } from './privacy.service';
import { profilesService, type ProfilesService } from './profiles.service';
import { recordingAudioService, type RecordingAudioService } from './recording-audio.service';
import { recordingsService, type RecordingsService } from './recordings.service';
import type { ServiceContext, ServiceProblem, StudyServiceOptions } from './service-context';
import {
  importSite,
  refusalByDatabase,
  refusalForRole,
  type SiteAsker,
  type TeamSession,
  type TeamWork,
} from './team-rights';
import { studiesService, type StudiesService } from './studies.service';
import { usageService, type UsageService } from './usage.service';
import { teamViewService, type TeamViewService } from './team-view.service';
import { visitsService, type VisitsService } from './visits.service';
import { reportDatabaseConnection } from './database-connection';
import { openWorkspace, type Workspace } from '../workspace/workspace';
import { useWorkstationName } from '../workstation-name';
import { workstationName } from '../workspace/workstation-name';

export type { ServiceProblem, StudyServiceOptions } from './service-context';

export type StudyService = ProfilesService &
  StudiesService &
  ImportsService &
  BatchesService &
  RecordingsService &
  RecordingAudioService &
  ParticipantsService &
  UsageService &
  PrivacyService &
  ExportsService &
  LocalMeasuresService &
  ChangeSettingsService &
  VisitsService &
  CurationService &
  ParticipantCurationService &
  NeedsYouCurationService &
  CohortService &
  TeamViewService &
  EngineService & {
    /** The study store (see ServiceContext). */
    readonly store: Store;
    readonly workspace: Workspace;
    /** What the log's redaction needs, in memory: `load` it before the logger is attached. */
    readonly logFacts: LogFacts;
    /** The team member the workstation works as (null: not a team database). */
    readonly member: TeamSession | null;
    /** Null when the member's role may do `work`, else the refusal that names the role and who can. */
    refusalForRole(work: TeamWork): ServiceProblem | null;
    /** Null unless `e` is the team database refusing the member's role something: then, that refusal in words. */
    refusalByDatabase(e: unknown): ServiceProblem | null;
    /** The site an import's new participants go to (`asked`: the site the researcher named, where `asker` says). */
    importSite(
      studyId: number,
      asked: string | undefined,
      asker: SiteAsker,
    ): Promise<Result<string, ServiceProblem>>;
    close(): Promise<void>;
  };

/** The study service on the workspace's own SQLite file, with its handle for tests that inspect the file. */
export type SqliteStudyService = StudyService & { readonly db: Db };

/** The keys of a workspace's profiles (and of its database's password): its key files, or the keychain. */
export const workspaceKeys = (workspace: Workspace, o: StudyServiceOptions): KeyStore =>
  createKeyStore({
    keysDir: workspace.keysDir,
    ...(o.env ? { env: o.env } : {}),
    ...(o.vault ? { vault: o.vault } : {}),
  });

/** The study service on the workspace's SQLite file (the embedded default). */
export const openStudyService = (o: StudyServiceOptions): SqliteStudyService => {
  const workspace = openWorkspace(o.workspaceDir);
  const { db } = openStudyDb(workspace.dbPath);
  const service = studyServiceOn(sqliteStore(db), workspace, workspaceKeys(workspace, o), o, (file) =>
    backupDatabase(db, file),
  );
  return { ...service, db };
};

/**
 * The study service on a store of either engine. `backupStudyFile` copies a SQLite study whole for the
 * archive; a study on a server has none. Closing the service closes the store.
 */
export const studyServiceOn = (
  store: Store,
  workspace: Workspace,
  keys: KeyStore,
  o: StudyServiceOptions,
  backupStudyFile: ((file: string) => Promise<void>) | null,
  member: TeamSession | null = null,
): StudyService => {
  const now = o.now ?? Date.now;
  const emit = o.onEvent ?? ((_: EngineEvent) => {});
  const workstation = o.workstation ?? workstationName(workspace.dir);
  useWorkstationName(workstation);
  const ctx: ServiceContext = {
    store,
    backupStudyFile,
    workspace,
    workstation,
    keys,
    options: o,
    now,
    iso: () => iso(now()),
    emit,
    logFacts: createLogFacts(),
    member,
  };
  const engine = createEngine(ctx);
  const usage = usageService(ctx, engine);
  const stopReporting = reportDatabaseConnection(store, emit);
  return {
    store,
    workspace,
    logFacts: ctx.logFacts,
    ...engine.service,
    ...usage,
    ...profilesService(ctx, engine, usage),
    ...studiesService(ctx),
    ...importsService(ctx, engine, usage),
    ...batchesService(ctx, engine, usage),
    ...recordingsService(ctx, engine),
    ...recordingAudioService(ctx),
    ...participantsService(ctx, engine),
    ...privacyService(ctx, engine),
    ...exportsService(ctx),
    ...localMeasuresService(ctx),
    ...changeSettingsService(ctx),
    ...visitsService(ctx),
    ...curationService(ctx, engine),
    ...participantCurationPublic(ctx, engine),
    ...needsYouPublic(ctx),
    ...cohortService(ctx),
    ...teamViewService(ctx),
    member,
    refusalForRole: (work) => refusalForRole(member, work),
    refusalByDatabase: (e) => refusalByDatabase(member, store.dialect.isPermissionDenied(e)),
    importSite: (studyId, asked, asker) => importSite(store, member, studyId, asked, asker),
    async close() {
      stopReporting();
      await engine.stopAll();
      await store.close();
    },
  };
};

/** The participant curation the study service offers (its undo is reached through `undoCuration`). */
const participantCurationPublic = (
  ctx: Parameters<typeof participantCurationService>[0],
  engine: Parameters<typeof participantCurationService>[1],
): ParticipantCurationService => {
  const { undoParticipantAct: _undo, ...rest } = participantCurationService(ctx, engine);
  return rest;
};

/** Dismissing needs-you items (its undo is reached through `undoCuration`). */
const needsYouPublic = (ctx: Parameters<typeof needsYouCurationService>[0]): NeedsYouCurationService => {
  const { undoDismissal: _undo, ...rest } = needsYouCurationService(ctx);
  return rest;
};
