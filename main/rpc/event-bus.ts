/**
 * One bus for everything the main process pushes to the renderer. Services publish; each transport
 * adapter (Electron IPC, WebSocket) subscribes and relays. Payloads are checked against the contract
 * when published, so an adapter never relays something the renderer would refuse.
 */
import { events, type EventName, type EventPayload } from '../../shared/contract';
import type { ReadonlyDeep } from '../../shared/rpc';

export type BusListener = (event: EventName, payload: unknown) => void;

export interface EventBus {
  publish<E extends EventName>(event: E, payload: ReadonlyDeep<EventPayload<E>>): void;
  subscribe(listener: BusListener): () => void;
}

export const createEventBus = (
  log: (message: string, detail?: unknown) => void = console.error,
): EventBus => {
  const listeners = new Set<BusListener>();
  return {
    publish(event, payload) {
      const parsed = events[event].payload.safeParse(payload);
      if (!parsed.success) {
        log(`voicescope: event ${event} outside its contract`, parsed.error.issues.slice(0, 3));
        return;
      }
      for (const l of listeners) {
        try {
          l(event, parsed.data);
        } catch (e) {
          log(`voicescope: event listener failed`, e);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
};
