/**
 * What the IPC handlers work with, given by the host (Electron shell or browser-mode node host), and
 * the two conversions every handler needs: a service refusal into the wire error, and "not found".
 */
import type { AppInfo } from '../../../shared/contract/app.contract';
import { err, type Err } from '../../../shared/result';
import { appError, type AppError, type AppErrorCode } from '../../../shared/rpc';
import type { ApiErrorKind } from '../../../shared/api/api-error';
import type { StudyService, ServiceProblem } from '../../services/study-service';
import type { BuiltinSandbox } from '../../sandbox/builtin-sandbox';
import type { PlanStore } from '../../import/plan-store';
import type { EventBus } from '../event-bus';
import type { TeamLogin } from '../../services/open-study-service';
import type { TeamSession } from '../../../shared/contract/team.contract';
import type { Result } from '../../../shared/result';

/** The study database the window works on, and the moves to another (the host makes them). */
export interface StudyDatabase {
  session(): TeamSession;
  /** Works on the team study as this member from now on, or says why it cannot. */
  useTeam(login: TeamLogin): Promise<Result<TeamSession, string>>;
  /** Back to the workspace's own study file. */
  useLocal(): Promise<Result<TeamSession, string>>;
}

/** The operating system's dialogs: only the Electron shell has them. */
export interface Dialogs {
  pick(purpose: 'audio' | 'folder' | 'manifest' | 'export-folder'): Promise<string[]>;
}

export interface HostDeps {
  readonly service: StudyService;
  readonly sandbox: BuiltinSandbox;
  readonly bus: EventBus;
  readonly plans: PlanStore;
  readonly dialogs: Dialogs | null;
  readonly info: Omit<AppInfo, 'firstRun'>;
  readonly now: () => number;
  readonly database: StudyDatabase;
}

/** Service failures that go away by themselves (the network, a busy service) are worth a retry button. */
const TRANSIENT: ReadonlySet<ApiErrorKind> = new Set([
  'NetworkError',
  'Timeout',
  'ServerError',
  'RateLimited',
  'InvalidResponse',
]);

export const fromProblem = (p: ServiceProblem, code: AppErrorCode = 'REFUSED'): Err<AppError> =>
  err(
    p.apiError
      ? appError('UPSTREAM', p.message, p.action, {
          apiError: p.apiError,
          retryable: TRANSIENT.has(p.apiError.kind),
        })
      : appError(code, p.message, p.action),
  );

export const notFound = (what: string): Err<AppError> =>
  err(appError('NOT_FOUND', `This ${what} does not exist (any more).`, 'Go back and reload the list.'));
