/**
 * The renderer's data layer: the typed RPC client in React context, queries and actions over it with
 * TanStack Query (caching, loading and error states, refetch), and the engine's pushed events turned
 * into targeted refreshes so screens stay current without polling.
 */
import {
  QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import type { CallResult, EventName, EventPayload, Input, Method, Output } from '../../../shared/contract';
import type { AppError } from '../../../shared/rpc';
import type { RpcClient } from './rpc/client';

/** A failed call inside TanStack Query, which expects thrown errors: the AppError rides along. */
export class CallFailed extends Error {
  constructor(readonly appError: AppError) {
    super(appError.message);
  }
}

const RpcContext = createContext<RpcClient | null>(null);

export const RpcProvider = ({ client, children }: { client: RpcClient; children: ReactNode }) => (
  <RpcContext.Provider value={client}>{children}</RpcContext.Provider>
);

export const useRpc = (): RpcClient => {
  const c = useContext(RpcContext);
  if (!c) throw new Error('useRpc outside RpcProvider');
  return c;
};

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 2_000 },
    },
  });

export const unwrap = <M extends Method>(r: CallResult<M>): Output<M> => {
  if (!r.ok) throw new CallFailed(r.error);
  return r.value;
};

/** A query of one procedure; its key is [method, input], so invalidating a method refreshes every screen that shows it. */
export const useCall = <M extends Method>(
  method: M,
  input: Input<M>,
  opts: Omit<UseQueryOptions<Output<M>, CallFailed>, 'queryKey' | 'queryFn'> = {},
) => {
  const rpc = useRpc();
  return useQuery<Output<M>, CallFailed>({
    queryKey: [method, input],
    queryFn: async () => unwrap(await rpc.call(method, input)),
    ...opts,
  });
};

/**
 * An action (a call that changes something). `run` resolves with the envelope, so the screen decides
 * what to show; the methods listed in `invalidates` are refreshed after success.
 */
export const useAction = <M extends Method>(method: M, invalidates: readonly Method[] = []) => {
  const rpc = useRpc();
  const qc = useQueryClient();
  const m = useMutation<Output<M>, CallFailed, Input<M>>({
    mutationFn: async (input) => unwrap(await rpc.call(method, input)),
    onSuccess: () => {
      for (const k of invalidates) void qc.invalidateQueries({ queryKey: [k] });
    },
  });
  return {
    run: (input: Input<M>) =>
      m.mutateAsync(input).then(
        (value) => ({ ok: true as const, value }),
        (e: unknown) => ({ ok: false as const, error: e instanceof CallFailed ? e.appError : null }),
      ),
    pending: m.isPending,
    /** The last successful answer, until the next run. */
    value: m.data,
    error: m.error?.appError ?? null,
    reset: m.reset,
  };
};

export const useEvent = <E extends EventName>(event: E, listener: (p: EventPayload<E>) => void) => {
  const rpc = useRpc();
  useEffect(() => rpc.on(event, listener), [rpc, event, listener]);
};

/**
 * Engine events → refreshes. Progress arrives a few times a second at most (coalesced in the main
 * process); refreshes of recordings are batched here again so a busy batch costs one refetch a second.
 */
export const EngineRefresh = () => {
  const rpc = useRpc();
  const qc = useQueryClient();
  useEffect(() => {
    let pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      for (const k of pending) void qc.invalidateQueries({ queryKey: [k] });
      pending = new Set();
    };
    const mark = (...keys: Method[]) => {
      for (const k of keys) pending.add(k);
      timer ??= setTimeout(flush, 1_000);
    };
    return rpc.on('engine', (e) => {
      switch (e.type) {
        case 'batch-progress':
          for (const b of e.batches) qc.setQueryData(['batches.get', { batchId: b.batchId }], b);
          mark('batches.list', 'studies.list', 'studies.get');
          break;
        case 'recordings-changed':
          mark(
            'recordings.page',
            'recordings.rows',
            'recordings.detail',
            'participants.page',
            'participants.get',
            'timeline.participant',
            'recordings.uncertain',
            'recordings.retryable',
          );
          break;
        case 'usage':
          mark('usage.overview', 'profiles.list');
          break;
        case 'queue-paused':
        case 'queue-resumed':
          void qc.invalidateQueries({ queryKey: ['queue.state'] });
          break;
        case 'import-progress':
          break;
      }
    });
  }, [rpc, qc]);
  return null;
};
