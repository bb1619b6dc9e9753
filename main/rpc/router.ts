/**
 * Maps (method, input) to an envelope, knowing no transport: the Electron adapter and the WebSocket
 * bridge both call `handle`. The input is parsed as unknown before any handler runs; the output is
 * parsed before it leaves, so a handler can never send the renderer something the contract does not
 * describe. Nothing is thrown across the boundary: a handler's refusal is a value, and an exception
 * becomes a typed error (SQLite's disk-full or read-only errors in the researcher's words; anything
 * else INTERNAL, its stack logged here and never sent).
 */
import { isMethod, procedures, type Method, type Output, type ParsedInput } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { appError, validationError, type AppError, type Envelope, type ReadonlyDeep } from '../../shared/rpc';
import type { RouterLog } from '../log';
import { classifyThrown } from './thrown';

export interface CallContext {
  /** Which adapter the call came through (for logs only: every adapter has checked its sender already). */
  readonly via: 'electron' | 'websocket' | 'direct';
}

/** What a handler may return: its output, readonly anywhere (the engine's types are), since the router parses it anyway. */
type Answer<M extends Method> =
  Result<ReadonlyDeep<Output<M>>, AppError> | Promise<Result<ReadonlyDeep<Output<M>>, AppError>>;
export type Handler<M extends Method> = (input: ParsedInput<M>, ctx: CallContext) => Answer<M>;
export type Handlers = { readonly [M in Method]: Handler<M> };
/** The handlers of one contract module, e.g. `HandlersOf<typeof profilesContract>`. */
export type HandlersOf<C> = { readonly [M in keyof C & Method]: Handler<M> };

export interface Router {
  handle(method: unknown, input: unknown, ctx: CallContext): Promise<Envelope<unknown>>;
}

const SLOW_MS = 200;

export const createRouter = (
  handlers: Handlers,
  log: RouterLog = { error: (m, d) => console.error(m, d) },
  opts: { dbPath?: string } = {},
): Router => ({
  async handle(method, input, ctx) {
    if (!isMethod(method)) {
      return {
        ok: false,
        error: appError(
          'NOT_FOUND',
          `Unknown request "${String(method).slice(0, 80)}".`,
          'This is a defect in Voicescope; report it.',
        ),
      };
    }
    const def = procedures[method];
    const parsedIn = def.input.safeParse(input ?? {});
    if (!parsedIn.success) return { ok: false, error: validationError(parsedIn.error.issues, 'The request') };
    const started = performance.now();
    try {
      const handler = handlers[method] as (i: unknown, c: CallContext) => Answer<Method>;
      const result = await handler(parsedIn.data, ctx);
      const ms = performance.now() - started;
      if (ms > SLOW_MS) log.slow?.(method, ms);
      if (!result.ok) return result;
      const parsedOut = def.output.safeParse(result.value);
      if (!parsedOut.success) {
        log.error(`voicescope: ${method} answered outside its contract`, parsedOut.error.issues.slice(0, 5));
        return { ok: false, error: validationError(parsedOut.error.issues, 'The answer') };
      }
      return { ok: true, value: parsedOut.data };
    } catch (e) {
      const known = classifyThrown(e, opts.dbPath);
      if (known.code === 'INTERNAL') log.error(`voicescope: ${method} failed`, e);
      return { ok: false, error: known };
    }
  },
});
