/**
 * Browser mode: the contract over the bridge's WebSocket (same origin, per-launch token). Calls made
 * while connecting wait; a dropped connection is retried with backoff, and calls in flight at that
 * moment fail as a typed "connection lost" (the client turns the rejection into an error value).
 */
import type { Transport } from '../../../../shared/rpc';

export interface WsTransport extends Transport {
  state(): 'connecting' | 'open' | 'closed';
  onState(listener: (s: 'connecting' | 'open' | 'closed') => void): () => void;
}

export const createWsTransport = (url: string): WsTransport => {
  let ws: WebSocket | null = null;
  let state: 'connecting' | 'open' | 'closed' = 'connecting';
  let nextId = 1;
  let retryMs = 250;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const queued: string[] = [];
  const subscribers = new Set<(event: string, payload: unknown) => void>();
  const stateListeners = new Set<(s: typeof state) => void>();
  const setState = (s: typeof state) => {
    state = s;
    for (const l of stateListeners) l(s);
  };

  const connect = () => {
    setState('connecting');
    const sock = new WebSocket(url);
    ws = sock;
    sock.onopen = () => {
      retryMs = 250;
      setState('open');
      for (const m of queued.splice(0)) sock.send(m);
    };
    sock.onmessage = (ev) => {
      let m: { id?: number; envelope?: unknown; event?: string; payload?: unknown };
      try {
        m = JSON.parse(String(ev.data)) as typeof m;
      } catch {
        return;
      }
      if (typeof m.id === 'number') {
        const p = pending.get(m.id);
        pending.delete(m.id);
        p?.resolve(m.envelope);
      } else if (typeof m.event === 'string') {
        for (const s of subscribers) s(m.event, m.payload);
      }
    };
    sock.onclose = () => {
      for (const [, p] of pending) p.reject(new Error('connection lost'));
      pending.clear();
      setState('closed');
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5_000);
    };
  };
  connect();

  return {
    request(method, input) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        const msg = JSON.stringify({ id, method, input });
        if (ws && ws.readyState === WebSocket.OPEN) ws.send(msg);
        else queued.push(msg);
      });
    },
    subscribe(listener) {
      subscribers.add(listener);
      return () => {
        subscribers.delete(listener);
      };
    },
    state: () => state,
    onState(l) {
      stateListeners.add(l);
      return () => {
        stateListeners.delete(l);
      };
    },
  };
};
