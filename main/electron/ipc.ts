/**
 * The Electron transport: one `ipcMain.handle` on the rpc channel in front of the router, and the
 * event bus relayed to the app's windows on the event channel. Every message's sender is checked
 * before anything else: the frame must be the top frame of a page of `app://app`. A sender that fails
 * the check gets a FORBIDDEN envelope and is logged; a malformed message gets a VALIDATION envelope.
 * The router itself parses the input against the contract and never throws.
 */
import { z } from 'zod';
import { appError, IPC_CHANNELS, validationError, type Envelope } from '../../shared/rpc';
import type { EventBus } from '../rpc/event-bus';
import type { Router } from '../rpc/router';
import { isAppUrl } from './security';

/** The parts of an invoke event the check reads (Electron's IpcMainInvokeEvent). */
export interface SenderLike {
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: SenderLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface EventTarget {
  isDestroyed(): boolean;
  getURL(): string;
  send(channel: string, message: unknown): void;
}

export interface IpcLog {
  warn(message: string, ...detail: unknown[]): void;
}

const CallMessage = z.object({ method: z.string().max(100), input: z.unknown() }).strict();

/** The sender check (Electron security checklist, "validate the sender of all IPC messages"). */
export const isTrustedSender = (event: SenderLike): boolean => {
  const frame = event.senderFrame;
  return frame !== null && (frame.parent === null || frame.parent === undefined) && isAppUrl(frame.url);
};

const FORBIDDEN = appError(
  'FORBIDDEN',
  'This request did not come from the Voicescope window, so it was refused.',
  'Use the Voicescope window.',
);

export const handleCall = async (
  router: Router,
  event: SenderLike,
  message: unknown,
  log: IpcLog,
): Promise<Envelope<unknown>> => {
  if (!isTrustedSender(event)) {
    log.warn(
      'ipc: refused a call from an untrusted frame',
      event.senderFrame
        ? { origin: safeOrigin(event.senderFrame.url), topFrame: event.senderFrame.parent == null }
        : { frame: 'gone' },
    );
    return { ok: false, error: FORBIDDEN };
  }
  const m = CallMessage.safeParse(message);
  if (!m.success) return { ok: false, error: validationError(m.error.issues, 'The request') };
  return router.handle(m.data.method, m.data.input, { via: 'electron' });
};

const safeOrigin = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unparseable)';
  }
};

/** Wires the router and the bus; returns the undo (tests, and a clean shutdown). */
export const wireIpc = (o: {
  ipcMain: IpcMainLike;
  router: Router;
  bus: EventBus;
  targets: () => readonly EventTarget[];
  log: IpcLog;
}): (() => void) => {
  o.ipcMain.handle(IPC_CHANNELS.rpc, (event, message) => handleCall(o.router, event, message, o.log));
  const unsubscribe = o.bus.subscribe((event, payload) => {
    for (const t of o.targets()) {
      // Only the app's own pages get events (a window that navigated elsewhere would be refused anyway).
      if (!t.isDestroyed() && isAppUrl(t.getURL())) t.send(IPC_CHANNELS.event, { event, payload });
    }
  });
  return () => {
    o.ipcMain.removeHandler(IPC_CHANNELS.rpc);
    unsubscribe();
  };
};
