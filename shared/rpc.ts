/**
 * The IPC machinery both sides share: how a procedure and an event are declared, the envelope every
 * answer travels in, the closed list of error codes, and the Transport the renderer talks through
 * (Electron IPC or the browser-mode WebSocket). Errors cross the boundary as values, never thrown:
 * `ipcMain.handle` would keep only an Error's message.
 */
import { z } from 'zod';
import { ApiError } from './api/api-error';

export interface Procedure<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
  /**
   * An action's declaration of what it changes: the procedures (or whole namespaces, e.g. `batches`)
   * whose answers may differ after it succeeds, so the renderer refreshes exactly those; `[]` when it
   * changes nothing another call shows. Absent: a read, which changes nothing.
   */
  readonly affects?: readonly string[];
}
/** A procedure that changes something, with what it affects as literal names (checked against the contract). */
export interface Action<
  I extends z.ZodType,
  O extends z.ZodType,
  A extends readonly string[],
> extends Procedure<I, O> {
  readonly affects: A;
}
export interface EventDef<P extends z.ZodType = z.ZodType> {
  readonly payload: P;
}

/** A read: answers a question and changes nothing. */
export const procedure = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
): Procedure<I, O> => ({ input, output });
/**
 * An action: changes something, and says what (see Procedure.affects). shared/contract/index.ts checks
 * at compile time that every name in `affects` is a procedure or a namespace of the contract.
 */
export const action = <I extends z.ZodType, O extends z.ZodType, const A extends readonly string[]>(
  input: I,
  output: O,
  affects: A,
): Action<I, O, A> => ({ input, output, affects });
export const eventDef = <P extends z.ZodType>(payload: P): EventDef<P> => ({ payload });

/** No input. */
export const NoInput = z.object({}).strict();

/**
 * Closed list of failure codes (STYLE: errors). REFUSED is a researcher-facing refusal of the service
 * layer (a name taken, nothing to import); UPSTREAM a failure of the Speech Analysis service; the DB_*
 * and DISK_FULL codes come from SQLite (DB_CONNECTION_LOST from a study database on a server); FORBIDDEN is a sender the bridge does not trust.
 */
export const APP_ERROR_CODES = [
  'VALIDATION',
  'NOT_FOUND',
  'CONFLICT',
  'REFUSED',
  'UNSUPPORTED',
  'UPSTREAM',
  'DB_BUSY',
  'DB_READONLY',
  'DB_CORRUPT',
  'DISK_FULL',
  'DB_IO',
  'DB_CANTOPEN',
  'DB_TOO_NEW',
  'DB_CONNECTION_LOST',
  'CANCELLED',
  'FORBIDDEN',
  'INTERNAL',
] as const;
export const AppErrorCode = z.enum(APP_ERROR_CODES);
export type AppErrorCode = z.infer<typeof AppErrorCode>;

export const AppError = z.object({
  code: AppErrorCode,
  /** What went wrong, in the researcher's words. */
  message: z.string(),
  /** What to do about it. */
  action: z.string(),
  retryable: z.boolean(),
  /** For UPSTREAM: the service's failure as classified by the API client. */
  apiError: ApiError.optional(),
  /** For VALIDATION: where the input was wrong. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type AppError = z.infer<typeof AppError>;

export const appError = (
  code: AppErrorCode,
  message: string,
  action: string,
  extra: Partial<Pick<AppError, 'retryable' | 'apiError' | 'issues'>> = {},
): AppError => ({
  code,
  message,
  action,
  retryable: extra.retryable ?? false,
  ...(extra.apiError ? { apiError: extra.apiError } : {}),
  ...(extra.issues ? { issues: extra.issues } : {}),
});

/** T with every array and object readonly: what services may hand over where a contract type is expected (it is parsed anyway). */
export type ReadonlyDeep<T> = T extends (infer U)[]
  ? readonly ReadonlyDeep<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
    : T;

export type Envelope<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

/** The wire form of an envelope, checked on arrival before the value is parsed against its procedure. */
export const EnvelopeShape = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: AppError }),
]);

/** The most issues a VALIDATION error lists. */
export const MAX_ISSUES = 20;

/** Turns zod issues into the VALIDATION error the researcher (or developer) sees. */
export const validationError = (issues: readonly z.core.$ZodIssue[], what: string): AppError =>
  appError(
    'VALIDATION',
    `${what} was not in the expected form.`,
    'This is a defect in Voicescope; report it with the steps that led here.',
    {
      // A field the contract does not declare is named by its own path, so the error says which one.
      // At most MAX_ISSUES: a request of 100,000 bad items gets an answer of a few lines.
      issues: issues
        .slice(0, MAX_ISSUES)
        .flatMap((i) => {
          const at = i.path.map(String);
          return i.code === 'unrecognized_keys'
            ? i.keys.map((k) => ({
                path: [...at, k].join('.'),
                message: `"${k.slice(0, 80)}" is not a field of this request.`,
              }))
            : [{ path: at.join('.') || '(root)', message: i.message }];
        })
        .slice(0, MAX_ISSUES),
    },
  );

/**
 * How the renderer reaches the main side. `request` resolves with the raw envelope (unknown until
 * parsed); `subscribe` delivers every pushed event by name.
 */
export interface Transport {
  request(method: string, input: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

export { IPC_CHANNELS } from './ipc-channels';

/** What the preload script exposes to the page (as `voicescope` on the global object), and nothing else. */
export interface PreloadApi {
  invoke(method: string, input: unknown): Promise<unknown>;
  on(listener: (event: string, payload: unknown) => void): () => void;
}
