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
import type {
  CallResult,
  EventName,
  EventPayload,
  Input,
  Method,
  Output,
  Target,
} from '../../../shared/contract';
import type { AppError } from '../../../shared/rpc';
import type { RpcClient } from './rpc/client';
import type { ContractChecks } from './rpc/contract-checks';

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

/** The query of one procedure: its key is [method, input], so invalidating a method refreshes every screen that shows it. */
const callKey = <M extends Method>(method: M, input: Input<M>) => [method, input];
const callQuery = <M extends Method>(rpc: RpcClient, method: M, input: Input<M>) => ({
  queryKey: callKey(method, input),
  queryFn: async () => unwrap(await rpc.call(method, input)),
});

export const useCall = <M extends Method>(
  method: M,
  input: Input<M>,
  opts: Omit<UseQueryOptions<Output<M>, CallFailed>, 'queryKey' | 'queryFn'> = {},
) => {
  const rpc = useRpc();
  return useQuery<Output<M>, CallFailed>({ ...callQuery(rpc, method, input), ...opts });
};

/**
 * Starts a call before any screen asks for it, into the same cache entry `useCall(method, input)` reads:
 * for the first screen's call, sent while React draws the window's frame, not after.
 */
export const prefetchCall = <M extends Method>(qc: QueryClient, rpc: RpcClient, method: M, input: Input<M>) =>
  void qc.prefetchQuery<Output<M>, CallFailed>(callQuery(rpc, method, input));

/** Puts an answer already in hand (the first screen's, written into the page) where `useCall(method, input)` reads. */
export const seedCall = <M extends Method>(qc: QueryClient, method: M, input: Input<M>, value: Output<M>) =>
  void qc.setQueryData<Output<M>>(callKey(method, input), value);

/**
 * Marks stale every query that shows one of `affected` (a method, or every method of a namespace).
 * What each action and event affects is declared in the contract, whose checks load after the first
 * screen (lib/rpc/contract-checks.ts): `affected` is computed from them once they are in hand.
 */
const invalidate = (
  rpc: RpcClient,
  qc: QueryClient,
  affected: (c: ContractChecks) => readonly Target[],
): Promise<void> =>
  rpc.contract().then((c) => {
    for (const t of affected(c))
      void qc.invalidateQueries({
        predicate: (q) => typeof q.queryKey[0] === 'string' && c.targets(t, q.queryKey[0]),
      });
  });

/**
 * Refreshes what the given methods affect, as the contract declares it (Procedure.affects): for a
 * screen that runs several calls in a row through `useRpc` and refreshes once at the end.
 */
export const useRefreshAfter = () => {
  const rpc = useRpc();
  const qc = useQueryClient();
  return (...methods: readonly Method[]) => {
    for (const m of methods) void invalidate(rpc, qc, (c) => c.affectsOf(m));
  };
};

/**
 * An action (a call that changes something). `run` resolves with the envelope, so the screen decides
 * what to show; what the contract says the method affects is refreshed after success.
 */
export const useAction = <M extends Method>(method: M) => {
  const rpc = useRpc();
  const qc = useQueryClient();
  const m = useMutation<Output<M>, CallFailed, Input<M>>({
    mutationFn: async (input) => unwrap(await rpc.call(method, input)),
    onSuccess: () => invalidate(rpc, qc, (c) => c.affectsOf(method)),
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
 * Engine events → refreshes of what each kind affects (shared/contract/events.contract.ts). Progress
 * arrives a few times a second at most (coalesced in the main process); refreshes are batched here again
 * so a busy batch costs one refetch a second. The queue's pauses are shown at once.
 */
export const EngineRefresh = () => {
  const rpc = useRpc();
  const qc = useQueryClient();
  useEffect(() => {
    let pending = new Set<Target>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const marked = [...pending];
      pending = new Set();
      void invalidate(rpc, qc, () => marked);
    };
    const mark = (keys: readonly Target[]) => {
      if (keys.length === 0) return;
      for (const k of keys) pending.add(k);
      timer ??= setTimeout(flush, 1_000);
    };
    return rpc.on('engine', (e) => {
      if (e.type === 'batch-progress')
        for (const b of e.batches) qc.setQueryData(['batches.get', { batchId: b.batchId }], b);
      if (e.type === 'queue-paused' || e.type === 'queue-resumed')
        void invalidate(rpc, qc, (c) => c.engineEventAffects(e.type));
      else void rpc.contract().then((c) => mark(c.engineEventAffects(e.type)));
    });
  }, [rpc, qc]);
  return null;
};
