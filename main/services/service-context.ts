/**
 * What the study service's parts share: the study database, the workspace, the key store, the clock
 * and the event sink (the service layer's refusal, `ServiceProblem`, is in main/problem.ts).
 */
import type { EngineEvent, QueueSettings } from '../../shared/study';
import type { ClientOptions } from '../api/client';
import type { Store } from '../db/store/types';
import type { PollSettings } from '../jobs/poll-schedule';
import type { LogFacts } from '../privacy/log-facts';
import type { KeyStore, KeyVault } from '../workspace/key-store';
import type { Workspace } from '../workspace/workspace';
import type { TeamSession } from './team-rights';

export { fromApi, problem, type ServiceProblem } from '../problem';

export interface StudyServiceOptions {
  readonly workspaceDir: string;
  readonly vault?: KeyVault;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly poll?: Partial<PollSettings>;
  readonly queue?: Partial<QueueSettings>;
  readonly client?: Partial<Omit<ClientOptions, 'profile'>>;
  readonly onEvent?: (e: EngineEvent) => void;
  readonly idleRecheckMs?: number;
  /** Who curation acts are recorded as done by; by default the operating-system user. */
  readonly operator?: string;
  /** This workstation's name on the study database; by default the one kept in the workspace. */
  readonly workstation?: string;
  /** How long a workstation's claim on an upload holds unless renewed (seconds). */
  readonly leaseSeconds?: number;
}

export interface ServiceContext {
  /** The study store: every repository call goes through it (or through the handle of one of its transactions). */
  readonly store: Store;
  /** A consistent copy of the whole study database into a SQLite file (the archive), where the study is one. */
  readonly backupStudyFile: ((file: string) => Promise<void>) | null;
  readonly workspace: Workspace;
  /** This workstation's name on the study database (main/workspace/workstation-name.ts). */
  readonly workstation: string;
  readonly keys: KeyStore;
  readonly options: StudyServiceOptions;
  readonly now: () => number;
  /** The clock as ISO 8601. */
  readonly iso: () => string;
  readonly emit: (e: EngineEvent) => void;
  /** What the log's redaction reads synchronously; the services keep it current (main/privacy/log-facts.ts). */
  readonly logFacts: LogFacts;
  /** The team member the workstation works as on a team database; null elsewhere (no roles there). */
  readonly member: TeamSession | null;
}
