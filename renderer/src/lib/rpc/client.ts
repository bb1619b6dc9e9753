/**
 * The renderer's typed client over any Transport: it parses each input before sending and each answer
 * on arrival against the one contract, and hands back an envelope, never a throw. A broken transport
 * becomes a typed error the screens can show like any other.
 */
import {
  events,
  isEventName,
  procedures,
  type CallResult,
  type EventName,
  type EventPayload,
  type Input,
  type Method,
} from '../../../../shared/contract';
import { appError, EnvelopeShape, validationError, type Transport } from '../../../../shared/rpc';

export interface RpcClient {
  call<M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export const createRpcClient = (transport: Transport): RpcClient => {
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  transport.subscribe((event, payload) => {
    if (!isEventName(event)) return;
    const parsed = events[event].payload.safeParse(payload);
    if (!parsed.success) {
      console.error(`voicescope: event ${event} outside the contract`, parsed.error.issues);
      return;
    }
    for (const l of listeners.get(event) ?? []) l(parsed.data);
  });
  return {
    async call(method, input) {
      const def = procedures[method];
      const inParsed = def.input.safeParse(input);
      if (!inParsed.success)
        return { ok: false, error: validationError(inParsed.error.issues, 'The request') };
      let raw: unknown;
      try {
        raw = await transport.request(method, inParsed.data);
      } catch {
        return {
          ok: false,
          error: appError(
            'UNSUPPORTED',
            'Voicescope lost the connection to its background service.',
            'Reload the window; if that does not help, restart Voicescope (npm start).',
            { retryable: true },
          ),
        };
      }
      const env = EnvelopeShape.safeParse(raw);
      if (!env.success) return { ok: false, error: validationError(env.error.issues, 'The answer') };
      if (!env.data.ok) return { ok: false, error: env.data.error };
      const out = def.output.safeParse(env.data.value);
      if (!out.success) return { ok: false, error: validationError(out.error.issues, 'The answer') };
      return { ok: true, value: out.data } as CallResult<typeof method>;
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
  };
};
