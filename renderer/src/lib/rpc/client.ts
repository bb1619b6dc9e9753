/**
 * The renderer's typed client over any Transport: it parses each input before sending and each answer
 * on arrival against the one contract, and hands back an envelope, never a throw. A broken transport
 * becomes a typed error the screens can show like any other.
 *
 * The contract's schemas (zod, contract-checks.ts) are the window's heaviest code to start, so they may
 * be given as a loader: they are then loaded when first asked for (`contract()`; the window asks once its
 * first screen has drawn), and calls made before they arrive (the first screen's, typically `app.info`)
 * go out and come back unchecked here. Nothing is unchecked overall: the host parses every input
 * and every answer against the same contract (main/rpc/router.ts), and it is the host, not the window,
 * that must not trust what it is sent. Events wait for the checks.
 */
import type { CallResult, EventName, EventPayload, Input, Method } from '../../../../shared/contract';
import type { AppError, Transport } from '../../../../shared/rpc';
import type { ContractChecks } from './contract-checks';

export interface RpcClient {
  call<M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** The contract's checks and what each action and event affects; loads them on the first ask. */
  contract(): Promise<ContractChecks>;
}

const CONNECTION_LOST: AppError = {
  code: 'UNSUPPORTED',
  message: 'Voicescope lost the connection to its background service.',
  action: 'Reload the window; if that does not help, restart Voicescope (npm start).',
  retryable: true,
};

/** An answer of the host not yet checked here: an envelope at least, or it is no answer. */
const looksLikeEnvelope = (
  raw: unknown,
): raw is { ok: true; value: unknown } | { ok: false; error: AppError } =>
  typeof raw === 'object' &&
  raw !== null &&
  ((raw as { ok?: unknown }).ok === true ||
    ((raw as { ok?: unknown }).ok === false && typeof (raw as { error?: unknown }).error === 'object'));

const checkAnswer = <M extends Method>(c: ContractChecks, method: M, raw: unknown): CallResult<M> => {
  const env = c.EnvelopeShape.safeParse(raw);
  if (!env.success) return { ok: false, error: c.validationError(env.error.issues, 'The answer') };
  if (!env.data.ok) return { ok: false, error: env.data.error };
  const out = c.procedures[method].output.safeParse(env.data.value);
  if (!out.success) return { ok: false, error: c.validationError(out.error.issues, 'The answer') };
  return { ok: true, value: out.data } as CallResult<M>;
};

/**
 * Answers too large to check on their way to the screen (a 200-session participant's timeline
 * is 188 kB, and zod's check of it took 100-150 ms of the 200 ms its charts have): the host has checked
 * them against the same contract before sending (main/rpc/router.ts), so they are handed over as they
 * came (an envelope at least) and checked here afterwards, in the window's idle time; an answer outside
 * the contract is then reported on the console, as an event outside it is.
 */
export const ANSWERS_CHECKED_AFTER: ReadonlySet<Method> = new Set<Method>(['timeline.participant']);

const whenIdle = (f: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 5000 }) : setTimeout(f, 50);

export const createRpcClient = (
  transport: Transport,
  checks: ContractChecks | (() => Promise<ContractChecks>),
): RpcClient => {
  let loaded: ContractChecks | null = typeof checks === 'function' ? null : checks;
  let loading: Promise<ContractChecks> | null = loaded ? Promise.resolve(loaded) : null;
  const contract = () => (loading ??= (checks as () => Promise<ContractChecks>)().then((c) => (loaded = c)));

  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const deliver = (c: ContractChecks, event: string, payload: unknown) => {
    if (!c.isEventName(event)) return;
    const parsed = c.events[event].payload.safeParse(payload);
    if (!parsed.success) {
      console.error(`voicescope: event ${event} outside the contract`, parsed.error.issues);
      return;
    }
    for (const l of listeners.get(event) ?? []) l(parsed.data);
  };
  transport.subscribe((event, payload) => {
    if (loaded) deliver(loaded, event, payload);
    else void contract().then((c) => deliver(c, event, payload));
  });
  return {
    async call<M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>> {
      const c = loaded;
      const def = c?.procedures[method];
      let sent: unknown = input;
      if (c && def) {
        const inParsed = def.input.safeParse(input);
        if (!inParsed.success)
          return { ok: false, error: c.validationError(inParsed.error.issues, 'The request') };
        sent = inParsed.data;
      }
      let raw: unknown;
      try {
        raw = await transport.request(method, sent);
      } catch {
        return { ok: false, error: CONNECTION_LOST };
      }
      // Unchecked (the checks have not arrived): an envelope passes as the host checked it; anything
      // else waits for the checks, which say what is wrong with it.
      if (!c || !def)
        return looksLikeEnvelope(raw) ? (raw as CallResult<M>) : checkAnswer(await contract(), method, raw);
      if (ANSWERS_CHECKED_AFTER.has(method) && looksLikeEnvelope(raw)) {
        whenIdle(() => {
          const checked = checkAnswer(c, method, raw);
          if (!checked.ok && raw.ok)
            console.error(`voicescope: answer of ${method} outside the contract`, checked.error.message);
        });
        return raw as CallResult<M>;
      }
      return checkAnswer(c, method, raw);
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => {
        set.delete(l);
      };
    },
    contract,
  };
};
