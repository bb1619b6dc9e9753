/**
 * The preload bridge (preload/index.ts) with a stand-in for `electron`: one object on the page with two
 * functions, contract methods only over app:rpc, events without Electron's event object.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, type PreloadApi } from '../../../shared/rpc';

const h = vi.hoisted(() => {
  const exposed = new Map<string, unknown>();
  const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  const invoke = vi.fn(async (..._a: unknown[]) => ({ ok: true, value: 'answer' }));
  return {
    exposed,
    listeners,
    invoke,
    electron: {
      contextBridge: {
        exposeInMainWorld: (key: string, value: unknown) => {
          exposed.set(key, value);
        },
      },
      ipcRenderer: {
        invoke,
        on: (c: string, l: (...a: unknown[]) => void) => {
          if (!listeners.has(c)) listeners.set(c, new Set());
          listeners.get(c)!.add(l);
        },
        removeListener: (c: string, l: (...a: unknown[]) => void) => {
          listeners.get(c)?.delete(l);
        },
      },
    },
  };
});
vi.mock('electron', () => h.electron);

let api: PreloadApi;
beforeAll(async () => {
  await import('../../../preload/index');
  api = h.exposed.get('voicescope') as PreloadApi;
});

describe('preload bridge', () => {
  it('exposes exactly one object, window.voicescope, with invoke and on and nothing else', () => {
    expect([...h.exposed.keys()]).toEqual(['voicescope']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
  });

  it('sends a contract method over app:rpc as {method, input}', async () => {
    expect(await api.invoke('profiles.list', {})).toEqual({ ok: true, value: 'answer' });
    expect(h.invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.rpc, { method: 'profiles.list', input: {} });
  });

  it('refuses anything that is not a contract method without sending it', async () => {
    h.invoke.mockClear();
    for (const m of ['nope', '__proto__', 'constructor', 'toString', '', 42]) {
      const r = (await api.invoke(m as string, {})) as { ok: boolean; error: { code: string } };
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe('NOT_FOUND');
    }
    expect(h.invoke).not.toHaveBeenCalled();
  });

  it('delivers events as (name, payload) only: the page never receives the IpcRendererEvent (and its sender)', () => {
    const got: unknown[][] = [];
    const off = api.on((...a) => {
      got.push(a);
    });
    const relay = [...h.listeners.get(IPC_CHANNELS.event)!][0]!;
    const ipcEvent = { sender: { send: () => {} }, senderId: 0 };
    relay(ipcEvent, { event: 'engine', payload: { type: 'queue-resumed', profileId: 1 } });
    relay(ipcEvent, 'not an event');
    expect(got).toEqual([['engine', { type: 'queue-resumed', profileId: 1 }]]);
    off();
    expect(h.listeners.get(IPC_CHANNELS.event)!.size).toBe(0);
  });

  it('stays small and imports only electron and shared/', () => {
    const src = readFileSync(join(import.meta.dirname, '..', '..', '..', 'preload', 'index.ts'), 'utf8');
    expect(src.split('\n').length).toBeLessThan(80);
    const imports = [...src.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
    expect(imports.every((i) => i === 'electron' || i.startsWith('../shared/'))).toBe(true);
  });
});
