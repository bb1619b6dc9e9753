/**
 * The preload bridge (sandboxed: only `electron` and bundled code). It exposes one object,
 * `window.voicescope`, with exactly two functions over two channels, and nothing of Electron or Node:
 *   - invoke(method, input): a contract method over `app:rpc`; anything else is refused here;
 *   - on(listener): pushed events from `app:event`, without the IpcRendererEvent (which would
 *     hand the page `sender`, i.e. ipcRenderer itself); returns the unsubscribe.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isMethodName } from '../shared/contract/method-names';
import { IPC_CHANNELS as CHANNELS } from '../shared/ipc-channels';
import type { Envelope, PreloadApi } from '../shared/rpc';

const notAMethod = (method: unknown): Envelope<never> => ({
  ok: false,
  error: {
    code: 'NOT_FOUND',
    message: `Unknown request "${String(method).slice(0, 80)}".`,
    action: 'This is a defect in Voicescope; report it.',
    retryable: false,
  },
});

export const api: PreloadApi = {
  invoke(method, input) {
    if (!isMethodName(method)) return Promise.resolve(notAMethod(method));
    return ipcRenderer.invoke(CHANNELS.rpc, { method, input }) as Promise<unknown>;
  },
  on(listener) {
    const relay = (_event: IpcRendererEvent, message: unknown) => {
      if (typeof message !== 'object' || message === null) return;
      const { event, payload } = message as { event?: unknown; payload?: unknown };
      if (typeof event === 'string') listener(event, payload);
    };
    ipcRenderer.on(CHANNELS.event, relay);
    return () => {
      ipcRenderer.removeListener(CHANNELS.event, relay);
    };
  },
};

contextBridge.exposeInMainWorld('voicescope', api);
