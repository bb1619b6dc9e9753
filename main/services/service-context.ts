/**
 * What the study service's parts share: the study database, the workspace, the key store, the clock
 * and the event sink; and the service layer's refusal, in the researcher's words.
 */
import type { ApiError } from '../../shared/api/api-error';
import { explainApiError } from '../../shared/api/api-error';
import type { EngineEvent, QueueSettings } from '../../shared/study';
import type { ClientOptions } from '../api/client';
import type { Db } from '../db/open';
import type { PollSettings } from '../jobs/poll-schedule';
import type { KeyStore, KeyVault } from '../workspace/key-store';
import type { Workspace } from '../workspace/workspace';

/** A refusal of the service layer, in the researcher's words. */
export interface ServiceProblem {
  readonly message: string;
  readonly action: string;
  readonly apiError?: ApiError;
}

export const problem = (message: string, action: string): ServiceProblem => ({ message, action });

export const fromApi = (e: ApiError): ServiceProblem => {
  const x = explainApiError(e);
  return { message: x.summary, action: x.action, apiError: e };
};

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
}

export interface ServiceContext {
  readonly db: Db;
  readonly workspace: Workspace;
  readonly keys: KeyStore;
  readonly options: StudyServiceOptions;
  readonly now: () => number;
  /** The clock as ISO 8601. */
  readonly iso: () => string;
  readonly emit: (e: EngineEvent) => void;
}
