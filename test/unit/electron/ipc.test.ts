/**
 * The Electron transport (main/electron/ipc.ts) with a stand-in for ipcMain: one handler on one
 * channel, every message's sender checked before the router sees it, events only to the app's pages.
 */
import { describe, expect, it, vi } from 'vitest';
import { handleCall, isTrustedSender, wireIpc, type IpcMainLike } from '../../../main/electron/ipc';
import { createEventBus } from '../../../main/rpc/event-bus';
import type { Router } from '../../../main/rpc/router';
import { IPC_CHANNELS } from '../../../shared/rpc';
import { FakeWebContents } from './stand-in';

const fakeIpcMain = () => {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  const ipcMain: IpcMainLike = {
    handle: (c, l) => {
      handlers.set(c, l as never);
    },
    removeHandler: (c) => {
      handlers.delete(c);
    },
  };
  /** What ipcRenderer.invoke(channel, message) does from a frame at `url`. */
  const invoke = async (channel: string, url: string | null, message: unknown, parent: unknown = null) => {
    const h = handlers.get(channel);
    if (!h)
      throw new Error(`Error invoking remote method '${channel}': No handler registered for '${channel}'`);
    return h({ senderFrame: url === null ? null : { url, parent } }, message);
  };
  return { ipcMain, handlers, invoke };
};

const fakeRouter = () => {
  const handle = vi.fn(async (method: unknown) => ({ ok: true as const, value: { method } }));
  return { router: { handle } as Router, handle };
};

const APP = 'app://app/index.html#/studies';

describe('sender check', () => {
  it('trusts only the top frame of an app://app page', () => {
    expect(isTrustedSender({ senderFrame: { url: APP, parent: null } })).toBe(true);
    expect(isTrustedSender({ senderFrame: { url: APP, parent: { url: APP } } })).toBe(false);
    expect(isTrustedSender({ senderFrame: { url: 'https://evil.example/', parent: null } })).toBe(false);
    expect(isTrustedSender({ senderFrame: { url: 'file:///tmp/x.html', parent: null } })).toBe(false);
    expect(isTrustedSender({ senderFrame: { url: 'app://evil/index.html', parent: null } })).toBe(false);
    expect(isTrustedSender({ senderFrame: null })).toBe(false);
  });
});

describe('the rpc channel', () => {
  it('registers exactly one handler, on app:rpc, and the undo removes it', () => {
    const { ipcMain, handlers } = fakeIpcMain();
    const undo = wireIpc({
      ipcMain,
      router: fakeRouter().router,
      bus: createEventBus(),
      targets: () => [],
      log: { warn: vi.fn() },
    });
    expect([...handlers.keys()]).toEqual([IPC_CHANNELS.rpc]);
    undo();
    expect(handlers.size).toBe(0);
  });

  it('passes a trusted call to the router as an electron call', async () => {
    const { ipcMain, invoke } = fakeIpcMain();
    const { router, handle } = fakeRouter();
    wireIpc({ ipcMain, router, bus: createEventBus(), targets: () => [], log: { warn: vi.fn() } });
    expect(await invoke(IPC_CHANNELS.rpc, APP, { method: 'app.info', input: {} })).toEqual({
      ok: true,
      value: { method: 'app.info' },
    });
    expect(handle).toHaveBeenCalledWith('app.info', {}, { via: 'electron' });
  });

  it('refuses untrusted senders with FORBIDDEN before the router runs, and logs them without their address', async () => {
    const { ipcMain, invoke } = fakeIpcMain();
    const { router, handle } = fakeRouter();
    const log = { warn: vi.fn() };
    wireIpc({ ipcMain, router, bus: createEventBus(), targets: () => [], log });
    const senders: [string | null, unknown][] = [
      ['https://evil.example/page?token=x', null],
      [APP, { url: APP }],
      ['file:///tmp/evil.html', null],
      ['app://evil/', null],
      [null, null],
    ];
    for (const [url, parent] of senders) {
      const r = (await invoke(IPC_CHANNELS.rpc, url, { method: 'profiles.list', input: {} }, parent)) as {
        ok: boolean;
        error?: { code: string };
      };
      expect(r.ok, String(url)).toBe(false);
      expect(r.error?.code).toBe('FORBIDDEN');
    }
    expect(handle).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledTimes(senders.length);
    expect(JSON.stringify(log.warn.mock.calls)).not.toContain('token=x');
  });

  it('nothing answers on any other channel', async () => {
    const { ipcMain, invoke } = fakeIpcMain();
    wireIpc({
      ipcMain,
      router: fakeRouter().router,
      bus: createEventBus(),
      targets: () => [],
      log: { warn: vi.fn() },
    });
    for (const channel of [IPC_CHANNELS.event, 'app:rpc2', 'rpc', 'ELECTRON_BROWSER_REQUIRE']) {
      await expect(invoke(channel, APP, { method: 'app.info', input: {} }), channel).rejects.toThrow(
        /No handler registered/,
      );
    }
  });

  it('a malformed message is a VALIDATION error, not a crash', async () => {
    const { router, handle } = fakeRouter();
    const trusted = { senderFrame: { url: APP, parent: null } };
    for (const m of [
      null,
      'app.info',
      42,
      { method: 7 },
      { method: 'app.info', input: {}, extra: true },
      { method: 'x'.repeat(101) },
    ]) {
      const r = await handleCall(router, trusted, m, { warn: vi.fn() });
      expect(r.ok, JSON.stringify(m)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('VALIDATION');
    }
    expect(handle).not.toHaveBeenCalled();
  });
});

describe('the event channel', () => {
  it('relays bus events to live app pages only', () => {
    const { ipcMain } = fakeIpcMain();
    const bus = createEventBus();
    const page = Object.assign(new FakeWebContents(), { url: APP });
    const closed = Object.assign(new FakeWebContents(), { url: APP, destroyed: true });
    const elsewhere = Object.assign(new FakeWebContents(), { url: 'https://evil.example/' });
    const undo = wireIpc({
      ipcMain,
      router: fakeRouter().router,
      bus,
      targets: () => [page, closed, elsewhere],
      log: { warn: vi.fn() },
    });
    const payload = { type: 'queue-resumed', profileId: 1 } as const;
    bus.publish('engine', payload as never);
    expect(page.sent).toEqual([{ channel: IPC_CHANNELS.event, message: { event: 'engine', payload } }]);
    expect(closed.sent).toEqual([]);
    expect(elsewhere.sent).toEqual([]);
    undo();
    bus.publish('engine', payload as never);
    expect(page.sent).toHaveLength(1);
  });
});
