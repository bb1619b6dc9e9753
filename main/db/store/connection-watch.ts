/**
 * A PostgreSQL store's connection as its callers see it: lost when a query fails because the server
 * went away (a restart, a network cut, the session ended by the server), said once, then probed with a
 * growing pause until a probe succeeds, when it is restored. Callers that would only fail meanwhile
 * (the engine's lanes) wait for it instead of spinning.
 */

export type ConnectionState = 'lost' | 'restored';

export interface ConnectionChange {
  readonly state: ConnectionState;
  /** When the store noticed (epoch ms). */
  readonly at: number;
}

export interface ConnectionWatch {
  /** True from the first sign of a lost connection until a probe succeeds. */
  readonly lost: boolean;
  /** Told each change, in order: one 'lost', then one 'restored'; returns the way to stop listening. */
  onChange(listener: (c: ConnectionChange) => void): () => void;
  /** Resolves once the connection is back (at once when it is not lost), or the watch is closed. */
  whenConnected(): Promise<void>;
}

export interface WatchControl extends ConnectionWatch {
  /** A query failed: when the failure means the connection is gone, the connection is lost. */
  noteFailure(e: unknown): void;
  /** The store is closing: no more probes, and whoever waits stops waiting. */
  close(): void;
}

/** The pauses between probes of a lost connection (the last repeats). */
export const PROBE_BACKOFF_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 8_000];

/** SQLSTATE classes and codes that mean the session is gone: connection exceptions, shut down by the server. */
const LOST_SQLSTATE = /^(08...|57P0[1-3])$/;
const LOST_ERRNO = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What the `pg` driver says when the socket closed under it, or a new connection could not be made. */
const LOST_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client network socket disconnected/i;

/** Whether a failed query's error means the connection to the server is gone (not the query's fault). */
export const isConnectionLost = (e: unknown): boolean => {
  if (typeof e !== 'object' || e === null) return false;
  const code = String((e as { code?: unknown }).code ?? '');
  if (LOST_SQLSTATE.test(code) || LOST_ERRNO.has(code)) return true;
  return e instanceof Error && LOST_MESSAGE.test(e.message);
};

export interface WatchOptions {
  /** One cheap query on a fresh or pooled connection; resolves when the server answers. */
  readonly probe: () => Promise<void>;
  readonly now?: () => number;
  readonly backoffMs?: readonly number[];
}

export const createConnectionWatch = (o: WatchOptions): WatchControl => {
  const now = o.now ?? Date.now;
  const backoff = o.backoffMs ?? PROBE_BACKOFF_MS;
  const listeners = new Set<(c: ConnectionChange) => void>();
  let waiters: (() => void)[] = [];
  let lost = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const tell = (state: ConnectionState) => {
    const change = { state, at: now() };
    for (const l of [...listeners]) {
      try {
        l(change);
      } catch (e) {
        console.error('database connection: a listener failed', e);
      }
    }
  };
  const release = () => {
    const waiting = waiters;
    waiters = [];
    for (const w of waiting) w();
  };
  const probeAfter = (attempt: number) => {
    if (closed) return;
    const ms = backoff[Math.min(attempt, backoff.length - 1)]!;
    timer = setTimeout(() => {
      timer = null;
      o.probe().then(
        () => {
          if (closed || !lost) return;
          lost = false;
          tell('restored');
          release();
        },
        () => probeAfter(attempt + 1),
      );
    }, ms);
    timer.unref();
  };

  return {
    get lost() {
      return lost;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    whenConnected: () =>
      !lost || closed ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    noteFailure(e) {
      if (lost || closed || !isConnectionLost(e)) return;
      lost = true;
      tell('lost');
      probeAfter(0);
    },
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      release();
    },
  };
};
